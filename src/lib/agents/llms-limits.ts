/**
 * Largest llms-full file, in UTF-8 bytes: one request an agent can read whole into its context. A
 * section that outgrows it continues in numbered parts; /llms-full.txt keeps the sections that fit.
 */
export const LLMS_FULL_MAX_BYTES = 500_000;

/** Most links /llms.txt gives one section; a larger one lists its index, newest pages and where the rest are. */
export const LLMS_TXT_SECTION_MAX_LINKS = 100;
