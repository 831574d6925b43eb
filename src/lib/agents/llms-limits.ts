/**
 * How large the llms files may grow, however many pages the site has (src/lib/agents/llms.ts).
 *
 * Largest llms-full file, in UTF-8 bytes: one request an agent can read whole into its context.
 * A section that outgrows it continues in numbered parts.
 */
export const LLMS_FULL_MAX_BYTES = 500_000;

/**
 * Most links /llms.txt gives one section. A larger section lists its index and its newest pages,
 * and says where the rest are: its paginated index and its full-text files.
 */
export const LLMS_TXT_SECTION_MAX_LINKS = 100;
