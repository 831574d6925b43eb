/**
 * What `npm start` and `npm run dev` leave out of netlify-cli's and Node's output: hints a healthy
 * run prints every time (the environment it read, the static server it chose, edge functions being
 * off, Blobs in sandbox mode), the box with its inner port, its start-up spinner, and Node's
 * deprecation warnings from inside netlify-cli. A hint that reports a failure passes.
 *
 * Runs on Node 24 type stripping: erasable TypeScript only.
 */

// eslint-disable-next-line no-control-regex -- ANSI colour codes are control characters
const ANSI = /\u001b\[[0-9;]*m/g;

const NOISE = [
  /^⬥ (?!.*\b(?:error|fail|failed|could not|cannot|unable)\b)/i,
  /^\s*[╭│╰]/,
  /^[⠀-⣿] Waiting for /,
  /^✔ #custom dev server ready/,
  /^\(node:\d+\) \[DEP\d+\] DeprecationWarning:/,
  /^\(Use `node --trace-deprecation/,
];

/** True for a line a person need not read. */
export const isNoise = (line: string): boolean => {
  const plain = line.replace(ANSI, '');
  return NOISE.some((pattern) => pattern.test(plain));
};
