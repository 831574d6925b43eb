/** Images in content bodies: beside the content file through Astro's image pipeline, under public/ as they are. */
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { getImage } from 'astro:assets';
import { imageMetadata } from 'astro/assets/utils';
import { PUBLIC_DIR, ROOT } from './project-dirs.ts';
import { filePath } from './links.ts';

/** Published image path → its size, for the width and height attributes of the HTML page. */
const sizes = new Map<string, { width: number; height: number }>();

export const imageSize = (src: string) => sizes.get(src) ?? sizes.get(filePath(src));

/** Images known only at build time, as Astro's guide imports them; `@content` lets a fixture build find its own. */
const contentImages = new Map(
  Object.entries(
    import.meta.glob<{ default: ImageMetadata }>('@content/**/*.{png,jpg,jpeg,gif,webp,avif,svg,tiff}'),
  ).map(([key, load]) => [key.startsWith('/') ? join(ROOT, key) : resolve(ROOT, key), load]),
);

/** The published path of an image written in `importer` (the entry's file path as Astro stores it). */
export async function publishImage(src: string, importer: string, alt: string): Promise<string> {
  const path = filePath(src);
  if (src.startsWith('/')) {
    if (!sizes.has(path)) {
      const { width, height } = await imageMetadata(readFileSync(join(PUBLIC_DIR, path)), path);
      sizes.set(path, { width, height });
    }
    return src;
  }
  const load = contentImages.get(resolve(dirname(resolve(ROOT, importer)), path));
  if (!load) throw new Error(`${importer}: image "${src}" is not an image file under the content folder`);
  const image = await getImage({ src: (await load()).default, alt });
  sizes.set(image.src, { width: Number(image.attributes.width), height: Number(image.attributes.height) });
  return image.src;
}
