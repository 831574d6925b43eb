/**
 * The maintained detector: secretlint's recommended preset, run in-process, as published. Its
 * packages load on the first lint, not with the function: a cold start that answers OPTIONS or an
 * MCP tools/list never parses them, and every lint awaits the load, so no text goes unscanned.
 */
import type { lintSource as LintSource } from '@secretlint/core';
import type { creator as RecommendedPreset } from '@secretlint/secretlint-rule-preset-recommend';
import type { Hit, SensitiveKind } from '../../shared/sensitive-data/kinds.ts';

const AWS_RULE = '@secretlint/secretlint-rule-aws';

type Config = Parameters<typeof LintSource>[0]['options']['config'];

const config = (recommendedPreset: typeof RecommendedPreset): Config => ({
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
});

type Linter = { lintSource: typeof LintSource; config: Config };

/** Loaded once, by the first lint; a failed load is tried again by the next (its lint fails meanwhile). */
let linter: Promise<Linter> | undefined;

function loadLinter(): Promise<Linter> {
  linter ??= Promise.all([
    import('@secretlint/core'),
    import('@secretlint/profiler'),
    import('@secretlint/secretlint-rule-preset-recommend'),
  ])
    .then(([core, profiler, preset]) => {
      // On by default, secretlint's profiler leaves ~60 `performance.mark` entries per lint in an array
      // never emptied: a leak in a long-lived function. (Core's own dependency, imported for this switch.)
      profiler.secretLintProfiler.setEnabled(false);
      return { lintSource: core.lintSource, config: config(preset.creator) };
    })
    .catch((error: unknown) => {
      linter = undefined;
      throw error;
    });
  return linter;
}

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
  const { lintSource, config } = await loadLinter();
  const json = looksLikeJsonObject(text);
  const result = await lintSource({
    source: {
      content: text,
      // Never a real path and never `.p12`: the GCP rule reads `.p12` files from disk.
      filePath: json ? 'request-field.json' : 'request-field.txt',
      ext: json ? '.json' : '.txt',
      contentType: 'text',
    },
    options: { config, maskSecrets: true, noPhysicFilePath: true },
  });
  return result.messages.map((message) => ({
    kind: RULE_KINDS[message.ruleId] ?? 'api-token',
    start: message.range[0],
    end: message.range[1],
  }));
}

/** Joins texts for one lint; no preset pattern admits both a newline and NUL, so none matches across it. */
const SEPARATOR = '\n\u0000\n';

/**
 * The hits of each text. Each lint indexes its text and runs every rule, so a request costs one
 * lint of all its texts; only when that finds something (or a text is a JSON object, linted as
 * `.json`) does each text get its own, to place the hits.
 */
export async function secretlintHitsEach(texts: readonly string[]): Promise<Hit[][]> {
  const any = texts.some(looksLikeJsonObject) || (await secretlintHits(texts.join(SEPARATOR))).length > 0;
  return any ? Promise.all(texts.map(secretlintHits)) : texts.map(() => []);
}
