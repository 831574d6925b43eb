import { describe, expect, it } from 'vitest';
import { distFiles, gzipSize, readDist } from '../../scripts/local-site/dist.ts';
import { COMPANY_SIZES } from '../../src/contract/fields.ts';

// The built workspace page against the published contract: a real form with a control for
// every submit field, one external script within budget, nothing the CSP would block.
const html = readDist('proposal.html');
const contract = JSON.parse(readDist('api/proposal.json')) as {
  consent: { text: string; version: string };
  actions: { submit: { request_schema: { properties: Record<string, { enum?: string[] }> } } };
};
const properties = contract.actions.submit.request_schema.properties;
const attr = (tag: string, name: string) => new RegExp(`\\b${name}="([^"]*)"`).exec(tag)?.[1];
const controls = [...html.matchAll(/<(input|textarea|select)\b[^>]*>/g)].map((m) => m[0]);
const named = (name: string) => controls.find((c) => attr(c, 'name') === name);
const decode = (s: string) =>
  s
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');
const optionsOf = (name: string) => {
  const select = new RegExp(`<select[^>]*name="${name}"[^>]*>([\\s\\S]*?)</select>`).exec(html)?.[1] ?? '';
  return [...select.matchAll(/<option value="([^"]*)"/g)].map((m) => m[1]).filter((v) => v !== '');
};

describe('the proposal workspace page', () => {
  it('is a real form posting to the API, with a named control for every submit field', () => {
    // One form per step (and WebMCP tool), each posting its action to the API.
    for (const [id, step, tool] of [
      ['guide-form', 'guide', 'request_guidance'],
      ['workspace', 'summarize', 'review_proposal_request'],
      ['send-form', 'submit', 'submit_proposal_request'],
    ]) {
      expect(html).toMatch(
        new RegExp(
          `<form id="${id}" data-step="${step}" method="post" action="/api/proposal" toolname="${tool}" tooldescription="[^"]+">`,
        ),
      );
    }
    const expected = Object.keys(properties).filter((p) => p !== 'action' && p !== 'consent_version');
    for (const name of expected) expect(named(name), name).toBeDefined();
    expect(named('idempotency_key')).toMatch(/type="hidden"/);
    expect(attr(named('idempotency_key')!, 'value')).toBe('');
    for (const action of ['guide', 'summarize', 'submit']) {
      expect(html).toMatch(new RegExp(`<button[^>]*name="action"[^>]*value="${action}"`));
    }
  });

  it('labels every visible control', () => {
    for (const control of controls.filter((c) => !/type="hidden"/.test(c))) {
      const id = attr(control, 'id');
      expect(id, control).toBeDefined();
      expect(html, control).toContain(`<label for="${id}"`);
    }
  });

  it('offers exactly the values the contract accepts', () => {
    expect(optionsOf('company_size')).toEqual([...COMPANY_SIZES]);
    expect(optionsOf('primary_need')).toEqual(properties['primary_need']!.enum);
    expect(optionsOf('engagement_model')).toEqual(properties['engagement_model']!.enum);
  });

  it('shows the consent text and version with an unticked box', () => {
    const box = named('consent')!;
    expect(box).toMatch(/type="checkbox"/);
    expect(box).not.toMatch(/\bchecked\b/);
    expect(attr(box, 'data-version')).toBe(contract.consent.version);
    const label = /<label for="f-consent"[^>]*>([\s\S]*?)<\/label>/.exec(html)?.[1] ?? '';
    expect(decode(label.trim())).toBe(contract.consent.text);
    expect(html).toContain(`Consent text version ${contract.consent.version}.`);
  });

  it('loads one external module script within 10 KB gzipped and nothing the CSP blocks', () => {
    // Data blocks (JSON-LD, the WebMCP tool definitions) are never executed, so CSP leaves them be.
    const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)].filter(
      (m) => !/type="application\/(ld\+)?json"/.test(m[1] ?? ''),
    );
    expect(scripts).toHaveLength(1);
    const [, attrs = '', inline = ''] = scripts[0]!;
    expect(attrs).toMatch(/type="module"/);
    expect(inline.trim()).toBe('');
    const src = attr(attrs, 'src')!;
    expect(src).toMatch(/^\/_astro\/[\w.-]+\.js$/);
    // The entry and any chunk it imports count towards the budget.
    const entry = src.slice(1);
    const chunks = [...readDist(entry).matchAll(/from\s*"\.\/([\w.-]+\.js)"/g)].map((m) => `_astro/${m[1]}`);
    const total = [entry, ...chunks].reduce((sum, f) => sum + gzipSize(f), 0);
    expect(total).toBeLessThanOrEqual(10 * 1024);
    expect(html).not.toMatch(/\son[a-z]+=/i);
    expect(html).not.toMatch(/\sstyle=/i);
    expect(distFiles('_astro/*.js')).toContain(entry);
  });

  it('marks what a request can go without as optional, and says once that guidance needs all of step 1', () => {
    const labels = [...html.matchAll(/<label for="f-([a-z_]+)">([\s\S]*?)<\/label>/g)].map(([, name, text]) => ({
      name: name!,
      text: decode(text!.replace(/<[^>]+>/g, '')),
    }));
    expect(html).not.toContain('(required)');
    expect(labels.filter((l) => l.text.endsWith(' (optional)')).map((l) => l.name)).toEqual([
      'cloud_context',
      'role',
      'phone',
    ]);
    expect(html).toContain('Guidance needs all four answers. Your request can be sent without them.');
    expect(html).toContain('Every field here is needed to send your request, except those marked optional.');
    // Each optional hint says it once, in the label.
    expect(html).not.toMatch(/class="hint" id="h-(role|phone)">[^<]*optional/);
    expect(named('phone')).toMatch(/type="tel"[^>]*autocomplete="tel"|autocomplete="tel"[^>]*type="tel"/);
  });

  it('names no mechanism in what a person reads (the consent text is the partner’s own, quoted as agreed)', () => {
    const main = /<main[\s\S]*<\/main>/.exec(html)![0];
    const words = decode(
      main
        .replace(/<script[\s\S]*?<\/script>/g, ' ')
        .replace(/<label for="f-consent">[\s\S]*?<\/label>/, ' ')
        .replace(/<[^>]+>/g, ' '),
    );
    expect(words).not.toMatch(
      /request_id|idempoten|\btoken\b|\bCRM\b|customer-relationship|\bstor(e|ed|es|age)\b|\bPOST\b|\bJSON\b|header/i,
    );
    expect(words).toContain('For agents and developers');
  });

  it('keeps the intro and the API note, and leaves what the form says to the markdown twin', () => {
    const twin = readDist('proposal.md');
    for (const heading of ['What to prepare', 'Never send', 'How it works', 'Consent', 'For agents and developers']) {
      expect(twin).toContain(`## ${heading}`);
    }
    expect(html).toContain('id="api"');
    expect(html).not.toContain('id="prepare"');
    expect(html).not.toContain('id="consent"');
    expect(html.indexOf('a short, plain description is enough')).toBeLessThan(html.indexOf('<form'));
  });
});
