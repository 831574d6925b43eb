/** How long each link of the confirmation email works: browser-safe, for the pages that say so (consent.ts re-exports it). */

/** How long each link of the confirmation email works after the request arrived: as long as its key. */
export const CONSENT_LINK_HOURS = { confirm: 24, deny: 30 * 24 } as const;
