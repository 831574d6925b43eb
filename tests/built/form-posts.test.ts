/**
 * The form without JavaScript, against the built function: another site's page cannot post it
 * through a visitor's browser, the site's own page can, and a form is read one way only (a field
 * sent twice is refused), so the reply page never shows a value the function did not use.
 */
import { describe, expect, it } from 'vitest';
import handler from '../../netlify/functions/proposal.mts';

const SITE = 'http://127.0.0.1';
const formPost = (body: string, headers: Record<string, string> = {}) =>
  handler(
    new Request(`${SITE}/api/proposal`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
      body,
    }),
  );

const GUIDE =
  'action=guide&question=We+need+to+migrate+our+data+center+to+the+cloud+and+cut+costs.' +
  '&industry=logistics&company_size=201-1000&primary_need=cloud-engineering';

describe('form posts through a browser', () => {
  it("another site's page is refused with the 403 page, and what it posted is not shown back", async () => {
    const res = await formPost(`${GUIDE}&company=Planted+by+evil.example`, {
      'sec-fetch-site': 'cross-site',
      origin: 'https://evil.example',
    });
    expect(res.status).toBe(403);
    const page = await res.text();
    expect(page).toContain('A browser request from another site is refused');
    expect(page).not.toContain('Planted by evil.example');
  });

  it("the site's own page (same-origin, as a browser sends it) gets its guidance", async () => {
    const res = await formPost(GUIDE, { 'sec-fetch-site': 'same-origin', origin: SITE });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('Cloud engineering');
  });
});

describe('one reading of a form', () => {
  it('a field sent twice is refused with a problem naming the field; the function used neither value', async () => {
    const res = await formPost(`${GUIDE}&industry=retail`);
    expect(res.status).toBe(422);
    const page = await res.text();
    expect(page).toContain('sent more than once');
  });
});
