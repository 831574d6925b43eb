/**
 * Which document holds which fact the tests keep true. When a section moves, change its home here
 * and the tests follow it.
 */
export const DOC_HOMES = {
  /** The first page a newcomer reads: prerequisites and the commands. */
  readme: 'README.md',
  /** The container image CI runs in (`container image \`<image>\``). */
  ciImage: 'docs/operating.md',
  /** Every `confirmation_email` value a submit can answer. */
  confirmationEmail: 'docs/api.md',
  /** The map of folders. */
  layout: 'docs/architecture.md',
} as const;

/** Every document a person is pointed to; links, commands and tables are checked in all of them. */
export const DOCUMENTS = [
  'README.md',
  'CONTRIBUTING.md',
  'docs/editing.md',
  'docs/operating.md',
  'docs/api.md',
  'docs/architecture.md',
];
