/** Reads content/ frontmatter directly (not through Astro) so tests check outputs against an independent reading. */
import { readFileSync, globSync } from 'node:fs';
import { join } from 'node:path';
import { load } from 'js-yaml';
import { root } from './dist.ts';

export interface ContentFile {
  file: string;
  data: Record<string, unknown>;
  body: string;
}

export function contentFiles(dir = join(root, 'content')): ContentFile[] {
  return globSync('**/*.md', { cwd: dir })
    .sort()
    .map((file) => {
      const [, fm = '', ...rest] = readFileSync(join(dir, file), 'utf8').split(/^---\s*$/m);
      return { file, data: load(fm) as Record<string, unknown>, body: rest.join('---') };
    });
}

export const published = (files: ContentFile[]) => files.filter((f) => f.data.draft !== true);
export const ofKind = (files: ContentFile[], kind: string) => published(files).filter((f) => f.data.kind === kind);
