// @ts-check
// One linter for every source file: typescript-eslint's type-checked rules (floating promises,
// unused code, unsafe `any`) over .ts, .mts, .mjs and the frontmatter and scripts of .astro files.
// Formatting is Prettier's job (`npm run format`); no rule here concerns layout.
import { existsSync } from 'node:fs';
import js from '@eslint/js';
import astro from 'eslint-plugin-astro';
import { defineConfig, globalIgnores } from 'eslint/config';
import tseslint from 'typescript-eslint';

// Type-aware rules need the types that `npm run build` generates: astro:content's (.astro/) and
// the function's validators (.generated/). Without them every use would read as an error type.
for (const generated of ['.astro/types.d.ts', '.generated/validators.d.mts']) {
  if (!existsSync(new URL(generated, import.meta.url))) {
    throw new Error(`${generated} is missing: run \`npm run build\` before \`npm run lint\``);
  }
}

export default defineConfig(
  globalIgnores(['dist/', '.astro/', '.netlify/', '.generated/', 'node_modules/', 'test-results/', 'bench-results/']),
  js.configs.recommended,
  tseslint.configs.recommendedTypeChecked,
  astro.configs.recommended,
  {
    languageOptions: {
      parserOptions: {
        // The two config files outside tsconfig.json's `include` get a default project.
        projectService: { allowDefaultProject: ['eslint.config.mjs', 'vitest.config.ts'] },
        tsconfigRootDir: import.meta.dirname,
        extraFileExtensions: ['.astro'],
      },
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // TypeScript already reports undefined names in every file, .mjs included (`// @ts-check`).
      'no-undef': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      // An implementation of a Promise-returning contract (a CRM adapter, a stand-in handler) is
      // async without awaiting so that whatever it throws becomes a rejection, not a sync throw.
      '@typescript-eslint/require-await': 'off',
    },
  },
  {
    // Tests read published JSON (`JSON.parse`, `response.json()`) and assert its shape with
    // expect(): typing every document again would restate the schemas the tests check.
    files: ['tests/**'],
    rules: {
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
  {
    // astro-eslint-parser has no project service: it type-checks a component through a program
    // of its own built from tsconfig.json.
    files: ['**/*.astro'],
    languageOptions: { parserOptions: { projectService: false, project: './tsconfig.json' } },
    // Astro types template markup as `any` (astroHTML.JSX.Element is `HTMLElement | any`), so
    // every `.map()` that returns markup would count as an unsafe return.
    rules: { '@typescript-eslint/no-unsafe-return': 'off' },
  },
);
