/**
 * A check of a JSON Schema pattern against RE2's syntax (github.com/google/re2/wiki/Syntax), for
 * where the `re2` npm package, a native addon, cannot be built. It reports the constructs RE2
 * refuses (lookaround, backreferences, atomic groups, possessive quantifiers, `\u` escapes,
 * repetition over 1000) and the shorthand classes whose members differ between engines (`\s`,
 * `\d`, `\w`, `\b`: ASCII in RE2, Unicode in Python's re).
 */
export function re2SyntaxProblem(pattern: string): string | undefined {
  const refused: [RegExp, string][] = [
    [/\(\?[=!]|\(\?<[=!]/, 'lookaround'],
    [/\(\?>/, 'atomic group'],
    [/\\[1-9]|\\k</, 'backreference'],
    [/[*+?}][+]/, 'possessive quantifier'],
    [/\\u/, '\\u escape (RE2 writes \\x{…})'],
    [/\\[sSdDwWbB]/, 'shorthand class whose members differ between engines'],
    [/\\[pP]\{/, 'Unicode property class (Python re has none)'],
  ];
  // Escaped backslashes first, so "\\\\d" (a backslash, then d) is not read as \d.
  const unescaped = pattern.replace(/\\\\/g, '');
  for (const [construct, name] of refused) if (construct.test(unescaped)) return name;
  for (const [, min, max] of unescaped.matchAll(/\{(\d+)(?:,(\d*))?\}/g)) {
    if (Number(min) > 1000 || (max !== undefined && max !== '' && Number(max) > 1000)) return 'repetition over 1000';
  }
  return undefined;
}
