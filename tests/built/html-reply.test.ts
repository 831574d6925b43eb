import { describe, expect, it } from 'vitest';
import handler from '../../netlify/functions/proposal.mts';
import { EXAMPLE_REQUESTS } from '../../src/contract/contract.ts';

// The pages the function answers a no-JavaScript form post with: the site's frame, people's
// words, and the workspace again with every typed value (secrets excepted).
const formPost = (fields: Record<string, string>) =>
  handler(
    new Request('http://127.0.0.1/api/proposal', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields),
    }),
  );

const { action: _a, ...intake } = EXAMPLE_REQUESTS.summarize;
const typed = {
  question: 'Can we move our contact center to AWS?',
  industry: 'insurance',
  company_size: '11-50',
  primary_need: 'genai-and-contact-center',
  ...intake,
  name: 'Alex Doe',
};
const valueOf = (html: string, name: string) => {
  const input = new RegExp(`<input id="f-${name}" name="${name}"[^>]*value="([^"]*)"`).exec(html)?.[1];
  const area = new RegExp(`<textarea id="f-${name}" name="${name}"[^>]*>([^<]*)</textarea>`).exec(html)?.[1];
  const select = new RegExp(`<select id="f-${name}" name="${name}"[\\s\\S]*?<option value="([^"]*)" selected>`).exec(
    html,
  )?.[1];
  return input ?? area ?? select;
};

describe('no-JavaScript reply pages', () => {
  it('are in the site frame and hold every value typed in any step', async () => {
    const res = await formPost({ action: 'summarize', ...typed });
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('<header class="site-header">');
    expect(html).toContain('<footer class="site-footer">');
    expect(html).toMatch(/<link rel="stylesheet" href="\/_astro\/[\w.-]+\.css">/);
    for (const [name, value] of Object.entries(typed)) expect(valueOf(html, name), name).toBe(value);
    // The send form carries every value, so consenting and sending needs no retyping.
    const send = /<form id="send-form"[\s\S]*?<\/form>/.exec(html)![0];
    for (const [name, value] of Object.entries(typed))
      expect(send).toContain(`<input type="hidden" name="${name}" value="${value}">`);
  });

  it("speak people's words: option names and labels, never ids or API wording", async () => {
    const html = await (await formPost({ action: 'summarize', ...typed })).text();
    const text = html.replace(/<(form|select|input|textarea)[\s\S]*?<\/\1>|<[^>]+>/g, ' ');
    expect(text).toContain('Defined project');
    expect(text).toContain('11-50 employees');
    expect(text).toContain('Generative AI and contact center');
    expect(text).not.toMatch(
      /defined-project|genai-and-contact-center|\(GET \/api\/proposal\)|does not match the contract/,
    );

    const refused = await (await formPost({ action: 'submit', consent: 'on', name: 'Alex Doe' })).text();
    const words = refused.replace(/<[^>]+>/g, ' ');
    expect(words).toContain('Some fields are missing or not valid.');
    expect(words).toContain('Business outcome');
    expect(words).not.toMatch(/business_outcome|does not match the contract/);
    expect(valueOf(refused, 'name')).toBe('Alex Doe');
  });

  it('a review marks what is missing at its field, and counts it in words', async () => {
    const { blocker: _blocker, ...rest } = typed;
    const html = await (await formPost({ action: 'summarize', ...rest })).text();
    expect(html).toContain('<span class="field-error" id="e-blocker">Needed to send your request.</span>');
    expect(html).toMatch(
      /<textarea id="f-blocker" name="blocker" required aria-describedby="h-blocker e-blocker" aria-invalid="true"/,
    );
    expect(html).toContain('<span class="field-error" id="e-email">Needed to send your request.</span>');
    expect(html).toMatch(/\d+ fields are still to fill in before you can send; each is marked in step 2\./);
    expect(html).not.toMatch(/required field|field\(s\)/);
  });

  it("a refusal that is not about a field speaks the person's words, not the API's title", async () => {
    const res = await formPost({
      action: 'submit',
      ...typed,
      constraints: 'Customer data stays in the EU.',
      email: 'alex@example.com',
      company: 'Example Insurance',
      consent: 'on',
      form_started_at: String(Date.now()),
    });
    expect(res.status).toBe(422);
    const html = await res.text();
    expect(html).toContain('<h1>Please send it again</h1>');
    expect(html).toContain('It was sent faster than a person usually fills in the form.');
    expect(html).not.toContain('The request looks automated');
    expect(valueOf(html, 'email')).toBe('alex@example.com');
  });

  it('a value refused as a likely secret is not sent back; the rest is', async () => {
    const secret = `AKIA${'QWERTYUIOPASDFGH'}`;
    const res = await formPost({ action: 'summarize', ...typed, blocker: `Our key is ${secret}` });
    expect(res.status).toBe(422);
    const html = await res.text();
    expect(html).not.toContain(secret);
    expect(valueOf(html, 'blocker')).toBe('');
    expect(valueOf(html, 'timeline')).toBe(typed.timeline);
  });
});
