/**
 * Largest llms-full file, in UTF-8 bytes: one request an agent can read whole into its context.
 * A section that outgrows it continues in numbered parts (src/lib/llms.ts).
 */
export const LLMS_FULL_MAX_BYTES = 500_000;
