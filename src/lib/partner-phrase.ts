/** How pages and replies describe the partner, from `type` in content/site.md. */

/**
 * "Independent cloud consulting and delivery partner" → "an independent cloud consulting and delivery partner".
 * @example partnerPhrase('Cloud partner') // "a cloud partner"
 */
export function partnerPhrase(type: string): string {
  const lower = type.trim().toLowerCase();
  return `${/^[aeiou]/.test(lower) ? 'an' : 'a'} ${lower}`;
}
