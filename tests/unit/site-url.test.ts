import { describe, expect, it } from 'vitest';
import { siteUrl } from '../../src/integrations/site-url.ts';

const CANONICAL = 'https://kestrelcloud.example';

describe('the origin a build publishes its absolute URLs at', () => {
  it('is the canonical URL in production, even where Netlify names another address', () => {
    expect(
      siteUrl(
        { CONTEXT: 'production', URL: 'https://x.netlify.app', DEPLOY_PRIME_URL: 'https://main--x.netlify.app' },
        CANONICAL,
      ),
    ).toBe(CANONICAL);
    expect(siteUrl({}, CANONICAL)).toBe(CANONICAL);
  });

  it("is a deploy preview's or branch deploy's own address", () => {
    const own = 'https://deploy-preview-42--x.netlify.app';
    expect(siteUrl({ CONTEXT: 'deploy-preview', DEPLOY_PRIME_URL: own }, CANONICAL)).toBe(own);
    expect(siteUrl({ CONTEXT: 'branch-deploy', DEPLOY_PRIME_URL: 'https://next--x.netlify.app' }, CANONICAL)).toBe(
      'https://next--x.netlify.app',
    );
  });

  it('is SITE_URL when set (npm start and npm run dev set their local address)', () => {
    expect(
      siteUrl(
        { SITE_URL: 'http://localhost:8888', CONTEXT: 'deploy-preview', DEPLOY_PRIME_URL: 'https://p' },
        CANONICAL,
      ),
    ).toBe('http://localhost:8888');
  });
});
