/**
 * Images in content bodies. One beside its content file (`![A diagram](./diagram.png)`) goes
 * through Astro's image pipeline: optimized, hashed under /_astro/, with its width and height.
 * One under public/ (`![A chart](/images/chart.png)`) is served as it is, with its size read from
 * the file. The loader has already checked that each exists and has alt text.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { getImage } from 'astro:assets';
import { imageMetadata } from 'astro/assets/utils';
import { PUBLIC_DIR } from './project-dirs.ts';

export interface ImageSize {
  width: number;
  height: number;
}

/** Published image path → its size, for the width and height attributes of the HTML page. */
const sizes = new Map<string, ImageSize>();

/** The size of an image the content published at `path`, when it is known. */
export const imageSize = (src: string): ImageSize | undefined =>
  sizes.get(src) ?? sizes.get(decodeURI(src.replace(/[?#].*$/, '')));

/**
 * The images Astro's content layer imported for content bodies, keyed as Astro keys them
 * (src + the content flag + the importing file). Astro's own markdown rendering reads the same map.
 */
async function contentImages(): Promise<Map<string, unknown>> {
  const { default: images } = await import('astro:asset-imports');
  return images;
}

const importId = (src: string, importer: string) =>
  `${src}?${new URLSearchParams([
    ['astroContentImageFlag', ''],
    ['importer', importer],
  ]).toString()}`;

/**
 * The published path of an image written in `importer` (the entry's file path as Astro stores it):
 * root-relative paths are files under public/, others are optimized by Astro's image pipeline.
 */
export async function publishImage(src: string, importer: string, alt: string): Promise<string> {
  if (src.startsWith('/')) {
    const path = decodeURI(src.replace(/[?#].*$/, ''));
    if (!sizes.has(path)) {
      const { width, height } = await imageMetadata(readFileSync(join(PUBLIC_DIR, path)), path);
      sizes.set(path, { width, height });
    }
    return src;
  }
  const source = (await contentImages()).get(importId(src, importer));
  if (!source) throw new Error(`${importer}: image "${src}" was not imported by Astro's content layer`);
  const image = await getImage({ src: source as ImageMetadata, alt });
  const width = Number(image.attributes.width);
  const height = Number(image.attributes.height);
  sizes.set(image.src, { width, height });
  return image.src;
}
