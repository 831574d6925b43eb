/** Reads content/ files directly (Astro's frontmatter reader, not its content layer) so tests check outputs against an independent reading. */
import { readFileSync, globSync } from 'node:fs';
import { join } from 'node:path';
import { parseFrontmatter } from 'astro/markdown';
import { root } from '../../scripts/local-site/dist.ts';
import { markdownForm } from '../../src/lib/content/mdx-components.ts';

export interface ContentFile {
  file: string;
  data: Record<string, unknown>;
  body: string;
}

/** README's placeholders, filled in from site.md's fields as an editor would read them. */
function fillPlaceholders(files: ContentFile[]): ContentFile[] {
  const site = files.find((f) => f.data.kind === 'site')?.data ?? {};
  const values: Record<string, unknown> = {
    partner: site.name,
    provider: site.cloud_provider,
    provider_full_name: site.cloud_provider_full_name,
    email: site.email,
  };
  const fill = (value: unknown): unknown => {
    if (typeof value === 'string')
      return value.replace(/\{([a-z_]+)\}/g, (whole, name: string) => (values[name] as string | undefined) ?? whole);
    if (Array.isArray(value)) return value.map(fill);
    if (value && typeof value === 'object' && !(value instanceof Date))
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fill(v)]));
    return value;
  };
  return files.map((f) => ({
    file: f.file,
    data: fill(f.data) as Record<string, unknown>,
    body: fill(f.body) as string,
  }));
}

export function contentFiles(dir = join(root, 'content')): ContentFile[] {
  return fillPlaceholders(
    globSync('**/*.{md,mdx}', { cwd: dir })
      .sort()
      .map((file) => {
        const { frontmatter, content } = parseFrontmatter(readFileSync(join(dir, file), 'utf8'));
        // An .mdx body as the twins and llms files carry it: the components in their markdown form.
        return { file, data: frontmatter, body: file.endsWith('.mdx') ? markdownForm(content) : content };
      }),
  );
}

export const published = (files: ContentFile[]) => files.filter((f) => f.data.draft !== true);
export const ofKind = (files: ContentFile[], kind: string) => published(files).filter((f) => f.data.kind === kind);
