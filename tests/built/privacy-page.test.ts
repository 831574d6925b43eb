/**
 * /privacy: an ordinary content page whose facts are the contract's data_handling, linked where
 * a person or an agent would look for it.
 */
import { describe, expect, it } from 'vitest';
import { htmlPages, readDist } from '../../scripts/local-site/dist.ts';
import { sendLimitsFromEnv } from '../../src/contract/send-limits.ts';
import { PAGE_PATHS } from '../../src/contract/paths.ts';

interface DataHandling {
  stored: string;
  where: string;
  retention: string;
  retention_days: number;
  sending: string;
  erasure: string;
  limits: {
    confirmation_emails_per_address_per_day: number;
    confirmation_emails_per_client_per_day: number;
    confirmation_emails_per_domain_per_day: number;
    confirmation_emails_per_day: number;
    sales_notices_per_hour: number;
  };
  counting: { address: string; client: string; domain: string };
  privacy_notice: string;
}

const contract = JSON.parse(readDist('api/proposal.json')) as {
  data_handling: DataHandling;
  actions: { submit: { result: { confirmation_email: Record<string, string> } } };
};
const data = contract.data_handling;
const text = (html: string) =>
  html
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ');
const page = text(readDist('privacy.html'));
const twin = readDist('privacy.md').replace(/\s+/g, ' ');

describe('/privacy', () => {
  it('names what a legal reviewer checks first, in this order, and leaves the mechanics to a technical section at the end', () => {
    const order = [
      'Who is responsible for your data',
      'Controller: Kestrel Cloud Ltd',
      'Registered office: 2 Harbour Wharf, Bristol BS1 4RN, United Kingdom',
      'The legal basis',
      'Article 6(1)(a)',
      'Article 6(1)(f)',
      'Your rights and how to use them',
      'to have it corrected or deleted, to restrict or object to its use, and to withdraw your consent',
      "complain to the UK Information Commissioner's Office",
      'Who processes it for us',
      'Netlify, Inc.',
      'Transfers outside the UK and the EU',
      'European Commission',
      'How long we keep it',
      'A stored request is deleted 365 days after it arrived',
      'Technical details',
    ];
    const at = order.map((text) => page.indexOf(text));
    expect(at.map((i, n) => [order[n], i >= 0])).toEqual(order.map((text) => [text, true]));
    expect([...at].sort((a, b) => a - b)).toEqual(at);
    const technical = page.indexOf('Technical details');
    for (const mechanics of ['Netlify Blobs', 'HMAC-SHA-256', 'by its /48'])
      expect(page.indexOf(mechanics), mechanics).toBeGreaterThan(technical);
  });

  it('lists the processors this build is configured with: hosting only, with nothing else set', () => {
    const html = readDist('privacy.html');
    const table = html.slice(html.indexOf('id="processors"'), html.indexOf('id="transfers"'));
    expect(table).toContain('Netlify, Inc.');
    for (const other of ['HubSpot', 'Pipedrive', 'Postmark', 'Slack']) expect(table).not.toContain(other);
    expect(table).toContain('href="https://www.netlify.com/legal/data-processing-agreement/"');
  });

  it('keeps requests for a finite period by default, the one the contract states, by a scheduled clean-up', () => {
    expect(data.retention_days).toBe(365);
    expect(data.retention).toMatch(
      /by a scheduled clean-up that runs every minute whether or not anyone visits the site/,
    );
  });

  it('says what the contract says: what is stored, where, for how long, what is sent, how to delete', () => {
    for (const fact of [data.stored, data.where, data.retention, data.sending, data.erasure]) {
      expect(page).toContain(fact);
      expect(twin).toContain(fact);
    }
  });

  it('states the limits the contract states, which are the function defaults of this build', () => {
    const { limits } = sendLimitsFromEnv((name) => process.env[name]);
    expect(data.limits).toEqual({
      confirmation_emails_per_address_per_day: limits.perAddress,
      confirmation_emails_per_client_per_day: limits.perClient,
      confirmation_emails_per_domain_per_day: limits.perDomain,
      confirmation_emails_per_day: limits.perDay,
      sales_notices_per_hour: limits.noticesPerHour,
    });
    expect(page).toContain(
      `Confirmation emails to one mailbox (however its address is spelled) in 24 hours: at most ${limits.perAddress}.`,
    );
    expect(page).toContain(`Confirmation emails from the whole site in a day: at most ${limits.perDay}.`);
    expect(page).toContain(`one client (one network address) in 24 hours: at most ${limits.perClient}.`);
    expect(page).toContain(`in an hour: at most ${limits.noticesPerHour};`);
    expect(page).toContain(`domains such as gmail.com excepted) in 24 hours: at most ${limits.perDomain}.`);
  });

  it('says what each limit counts, as the contract does: an IPv6 client by its /48, a domain with its subdomains', () => {
    for (const rule of Object.values(data.counting)) {
      expect(page).toContain(rule);
      expect(twin).toContain(rule);
    }
    expect(data.counting.client).toMatch(/IPv6 client by its \/48/);
    expect(data.counting.client).toMatch(/keyed hash/);
    expect(data.counting.address).toMatch(/fastmail/i);
  });

  it('is in the sitemap and /llms.txt, and data_handling names it', () => {
    expect(readDist('sitemap-0.xml')).toMatch(/<loc>[^<]*\/privacy<\/loc>/);
    expect(readDist('llms.txt')).toMatch(/\]\([^)]*\/privacy(\.md)?\)/);
    expect(new URL(data.privacy_notice).pathname).toBe(PAGE_PATHS.privacy);
  });

  it('is linked from every page footer, beside the consent text and from SKILL.md', () => {
    for (const { file } of htmlPages()) expect(readDist(file), file).toContain(`href="${PAGE_PATHS.privacy}"`);
    const consent = /<span class="hint" id="h-consent">(.*?)<\/span>/.exec(readDist('proposal.html'))?.[1] ?? '';
    expect(consent).toContain(`href="${PAGE_PATHS.privacy}"`);
    expect(readDist('.well-known/agent-skills/request-a-proposal/SKILL.md')).toContain(data.privacy_notice);
  });

  it('explains every confirmation_email value on /agents, "limited" included', () => {
    const agents = text(readDist('agents.html'));
    const meanings = contract.actions.submit.result.confirmation_email;
    expect(Object.keys(meanings)).toContain('limited');
    for (const [value, meaning] of Object.entries(meanings)) {
      expect(agents).toContain(`confirmation_email: "${value}"`);
      expect(agents).toContain(meaning);
    }
  });
});
