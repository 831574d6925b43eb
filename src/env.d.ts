/** Astro's content layer: the images imported for content bodies (see src/lib/content-images.ts). */
declare module 'astro:asset-imports' {
  const images: Map<string, unknown>;
  export default images;
}
