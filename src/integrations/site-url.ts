/** The origin of a build's absolute URLs, so a followed link stays on that build (a preview, a local run). */
export function siteUrl(env: Record<string, string | undefined>, canonical: string): string {
  if (env['SITE_URL']) return env['SITE_URL'];
  // Netlify's build environment: CONTEXT names the kind of deploy, DEPLOY_PRIME_URL its address.
  const preview = env['CONTEXT'] === 'deploy-preview' || env['CONTEXT'] === 'branch-deploy';
  if (preview && env['DEPLOY_PRIME_URL']) return env['DEPLOY_PRIME_URL'];
  return canonical;
}
