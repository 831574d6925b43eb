/** The maintained detector: secretlint's recommended preset, run in-process, as published. */
import { lintSource } from '@secretlint/core';
import { secretLintProfiler } from '@secretlint/profiler';
import { creator as recommendedPreset } from '@secretlint/secretlint-rule-preset-recommend';
import type { Hit, SensitiveKind } from './kinds.ts';

// On by default, secretlint's profiler leaves ~60 `performance.mark` entries per lint in an array
// never emptied: a leak in a long-lived function. (Core's own dependency, imported for this switch.)
secretLintProfiler.setEnabled(false);

type LintOptions = Parameters<typeof lintSource>[0]['options'];

const AWS_RULE = '@secretlint/secretlint-rule-aws';

const CONFIG: LintOptions['config'] = {
  rules: [
    {
      id: recommendedPreset.meta.id,
      rule: recommendedPreset,
      rules: [
        // Access key ids (AKIA..., ASIA...) are off by default; a public form must refuse them.
        // Account ids are not secrets (AWS says so), and people legitimately name their accounts.
        { id: AWS_RULE, options: { enableIDScanRule: true }, allowMessageIds: ['AWSAccountID'] },
        // `secretlint-disable` comments would let the sender switch the scan off from inside a field.
        { id: '@secretlint/secretlint-rule-filter-comments', disabled: true },
      ],
    },
  ],
};

/** Our kind for a secretlint rule; the preset's other rules all find provider tokens. */
const RULE_KINDS: Readonly<Record<string, SensitiveKind>> = {
  [AWS_RULE]: 'cloud-access-key',
  '@secretlint/secretlint-rule-gcp': 'private-key',
  '@secretlint/secretlint-rule-privatekey': 'private-key',
  '@secretlint/secretlint-rule-basicauth': 'url-credentials',
  '@secretlint/secretlint-rule-database-connection-string': 'connection-string',
};

/** A JSON object pasted whole gets the `.json` extension so the GCP service-account rule parses it. */
const looksLikeJsonObject = (text: string): boolean => /^\s*\{[\s\S]*\}\s*$/.test(text);

/** Runs the recommended preset over one text. The returned hits carry no part of the text. */
export async function secretlintHits(text: string): Promise<Hit[]> {
  const json = looksLikeJsonObject(text);
  const result = await lintSource({
    source: {
      content: text,
      // Never a real path and never `.p12`: the GCP rule reads `.p12` files from disk.
      filePath: json ? 'request-field.json' : 'request-field.txt',
      ext: json ? '.json' : '.txt',
      contentType: 'text',
    },
    options: { config: CONFIG, maskSecrets: true, noPhysicFilePath: true },
  });
  return result.messages.map((message) => ({
    kind: RULE_KINDS[message.ruleId] ?? 'api-token',
    start: message.range[0],
    end: message.range[1],
  }));
}

/**
 * Joins texts for one lint. No preset pattern matches across it: classes that admit a newline (the
 * private key body) reject NUL, and those that admit NUL reject `\n`. The texts hold no controls.
 */
const SEPARATOR = '\n\u0000\n';

/**
 * Runs the preset over many texts at once (each lint indexes its text and runs every rule, so one
 * lint per request, not per field) and returns each text's hits in its own offsets. JSON objects are
 * linted alone, as `.json`, for the GCP service-account rule.
 */
export async function secretlintHitsEach(texts: readonly string[]): Promise<Hit[][]> {
  const hitsEach: Hit[][] = texts.map(() => []);
  const batched = texts.flatMap((text, index) => (looksLikeJsonObject(text) ? [] : [index]));
  let offset = 0;
  const starts = batched.map((index) => {
    const start = offset;
    offset += (texts[index] ?? '').length + SEPARATOR.length;
    return start;
  });
  const jobs = texts.map(async (text, index) => {
    if (looksLikeJsonObject(text)) hitsEach[index] = await secretlintHits(text);
  });
  const joined = batched.map((index) => texts[index] ?? '').join(SEPARATOR);
  if (batched.length > 0) {
    jobs.push(
      secretlintHits(joined).then((hits) => {
        for (const hit of hits) {
          // The last text starting at or before the hit holds it.
          const slot = starts.findLastIndex((start) => start <= hit.start);
          const [index = 0, start = 0] = [batched[slot], starts[slot]];
          const length = (texts[index] ?? '').length;
          const [from, to] = [Math.min(hit.start - start, length), Math.min(hit.end - start, length)];
          hitsEach[index]?.push({ kind: hit.kind, start: from, end: to });
        }
      }),
    );
  }
  await Promise.all(jobs);
  return hitsEach;
}
