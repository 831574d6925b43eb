/**
 * The origin every absolute URL of a build points at, so an agent that follows a link stays on the
 * build it came from: production publishes at the canonical URL (content/site.md), a Netlify deploy
 * preview or branch deploy at its own address, `npm start` and `npm run dev` at the local address
 * they serve (their scripts set SITE_URL). SITE_URL, when set, wins.
 */
export function siteUrl(env: Record<string, string | undefined>, canonical: string): string {
  if (env['SITE_URL']) return env['SITE_URL'];
  // Netlify's build environment: CONTEXT names the kind of deploy, DEPLOY_PRIME_URL its address.
  const preview = env['CONTEXT'] === 'deploy-preview' || env['CONTEXT'] === 'branch-deploy';
  if (preview && env['DEPLOY_PRIME_URL']) return env['DEPLOY_PRIME_URL'];
  return canonical;
}
