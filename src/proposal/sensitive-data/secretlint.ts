/**
 * The maintained detector: secretlint's recommended preset, run in-process on one text at a time.
 * The config is built once at module load; @secretlint/core registers the preset's rules on each
 * call, which costs well under a millisecond a check, so the package is used as published.
 */
import { lintSource } from '@secretlint/core';
import { secretLintProfiler } from '@secretlint/profiler';
import { creator as recommendedPreset } from '@secretlint/secretlint-rule-preset-recommend';
import type { Hit, SensitiveKind } from './kinds.ts';

// secretlint's profiler is on by default: every lint leaves ~60 `performance.mark` entries in the
// process-wide timeline and copies them into an array that is never emptied. In a long-lived
// function that is a leak and a slowdown, so switch it off before the first lint. (The package is
// @secretlint/core's own dependency; it is imported here only to reach this switch.)
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

/** Which of our kinds each secretlint rule reports. Rules not listed map to `secret`. */
const RULE_KINDS: Readonly<Record<string, SensitiveKind>> = {
  [AWS_RULE]: 'cloud-access-key',
  '@secretlint/secretlint-rule-gcp': 'private-key',
  '@secretlint/secretlint-rule-privatekey': 'private-key',
  '@secretlint/secretlint-rule-basicauth': 'url-credentials',
  '@secretlint/secretlint-rule-database-connection-string': 'connection-string',
  '@secretlint/secretlint-rule-npm': 'api-token',
  '@secretlint/secretlint-rule-slack': 'api-token',
  '@secretlint/secretlint-rule-openai': 'api-token',
  '@secretlint/secretlint-rule-anthropic': 'api-token',
  '@secretlint/secretlint-rule-groq': 'api-token',
  '@secretlint/secretlint-rule-huggingface': 'api-token',
  '@secretlint/secretlint-rule-linear': 'api-token',
  '@secretlint/secretlint-rule-notion': 'api-token',
  '@secretlint/secretlint-rule-sendgrid': 'api-token',
  '@secretlint/secretlint-rule-shopify': 'api-token',
  '@secretlint/secretlint-rule-stripe': 'api-token',
  '@secretlint/secretlint-rule-github': 'api-token',
  '@secretlint/secretlint-rule-gitlab': 'api-token',
  '@secretlint/secretlint-rule-grafana': 'api-token',
  '@secretlint/secretlint-rule-1password': 'api-token',
  '@secretlint/secretlint-rule-hashicorp-vault': 'api-token',
  '@secretlint/secretlint-rule-vercel': 'api-token',
  '@secretlint/secretlint-rule-databricks': 'api-token',
  '@secretlint/secretlint-rule-docker': 'api-token',
  '@secretlint/secretlint-rule-figma': 'api-token',
  '@secretlint/secretlint-rule-cloudflare': 'api-token',
  '@secretlint/secretlint-rule-tailscale': 'api-token',
};

/** The secretlint rule ids this module knows a kind for (for tests and reports). */
export const SECRETLINT_RULE_IDS: readonly string[] = Object.keys(RULE_KINDS);

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
    kind: RULE_KINDS[message.ruleId] ?? 'secret',
    start: message.range[0],
    end: message.range[1],
  }));
}

/**
 * Joins texts for one lint. No preset pattern can match across it: every character class that
 * admits a newline (the private key body) rejects NUL, and every one that admits NUL rejects `\n`.
 * The texts it joins have had their control characters removed, so it cannot occur inside them.
 */
const SEPARATOR = '\n\u0000\n';

/**
 * Runs the preset over many texts at once and returns the hits of each, in the texts' own offsets.
 * Each lint still indexes its text and runs every rule, so one lint per request instead of one per
 * field keeps that cost per request. JSON objects are linted on their own, with the `.json`
 * extension, for the GCP service-account rule.
 */
export async function secretlintHitsEach(texts: readonly string[]): Promise<Hit[][]> {
  const hitsEach: Hit[][] = texts.map(() => []);
  const starts: number[] = [];
  const batched: number[] = [];
  const alone: number[] = [];
  let offset = 0;
  texts.forEach((text, index) => {
    if (looksLikeJsonObject(text)) {
      alone.push(index);
      return;
    }
    batched.push(index);
    starts.push(offset);
    offset += text.length + SEPARATOR.length;
  });

  const jobs: Promise<void>[] = alone.map(async (index) => {
    hitsEach[index] = await secretlintHits(texts[index] ?? '');
  });
  if (batched.length > 0) {
    jobs.push(
      secretlintHits(batched.map((index) => texts[index] ?? '').join(SEPARATOR)).then((hits) => {
        for (const hit of hits) {
          // The last text starting at or before the hit holds it.
          let low = 0;
          let high = starts.length - 1;
          while (low < high) {
            const middle = (low + high + 1) >> 1;
            if ((starts[middle] ?? 0) <= hit.start) low = middle;
            else high = middle - 1;
          }
          const index = batched[low] ?? 0;
          const start = starts[low] ?? 0;
          const length = (texts[index] ?? '').length;
          hitsEach[index]?.push({
            kind: hit.kind,
            start: Math.min(hit.start - start, length),
            end: Math.min(hit.end - start, length),
          });
        }
      }),
    );
  }
  await Promise.all(jobs);
  return hitsEach;
}
