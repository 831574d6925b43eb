/**
 * The function as Netlify ships it: @netlify/zip-it-and-ship-it (the packager `netlify build` and
 * `netlify deploy` call) run on netlify/functions/proposal.mts with the [functions] settings of
 * netlify.toml, the one home of those settings. Shared by the bench and the test that runs the
 * unpacked function.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { zipFunction } from '@netlify/zip-it-and-ship-it';

const root = fileURLToPath(new URL('../', import.meta.url));

export const FUNCTION_SOURCE = join(root, 'netlify/functions/proposal.mts');
/** Where the packager puts the function file inside the zip (and the unpacked folder). */
export const SHIPPED_ENTRY = 'netlify/functions/proposal.mjs';

export interface FunctionsSettings {
  nodeBundler?: string;
  includedFiles: string[];
}

/** node_bundler and included_files of netlify.toml's [functions] table. */
export function functionsSettings(): FunctionsSettings {
  const toml = readFileSync(join(root, 'netlify.toml'), 'utf8');
  const table = /^\[functions\]\s*$([\s\S]*?)(?=^\[)/m.exec(toml)?.[1] ?? '';
  const nodeBundler = /^\s*node_bundler\s*=\s*"([^"]+)"/m.exec(table)?.[1];
  const list = /^\s*included_files\s*=\s*\[([^\]]*)\]/m.exec(table)?.[1] ?? '';
  const includedFiles = [...list.replace(/#.*$/gm, '').matchAll(/"([^"]+)"/g)].map((m) => m[1] as string);
  return { ...(nodeBundler === undefined ? {} : { nodeBundler }), includedFiles };
}

export type ZipOptions = Parameters<typeof zipFunction>[2];

/** The packager's options as `netlify build` passes them for this project. */
export function packagerOptions(archiveFormat: 'zip' | 'none', settings = functionsSettings()): ZipOptions {
  return {
    basePath: root,
    repositoryRoot: root,
    archiveFormat,
    config: {
      '*': {
        ...(settings.nodeBundler === undefined ? {} : { nodeBundler: settings.nodeBundler as 'nft' }),
        includedFiles: settings.includedFiles,
        includedFilesBasePath: root,
      },
    },
  };
}

/** Packs the function into `destination`: a zip, or (`none`) the folder the zip would hold. */
export async function packFunction(
  destination: string,
  archiveFormat: 'zip' | 'none',
  source = FUNCTION_SOURCE,
  options = packagerOptions(archiveFormat),
) {
  const packed = await zipFunction(source, destination, options);
  if (!packed) throw new Error(`zip-it-and-ship-it found no function in ${source}`);
  return packed;
}
