/** A markdown body split at its `## ` headings: the text before the first, then each section. */
export function bodySections(body: string) {
  const [intro = '', ...rest] = body.split(/^## /m);
  return {
    intro: intro.trim(),
    sections: rest.map((part) => {
      const newline = part.indexOf('\n');
      const heading = (newline === -1 ? part : part.slice(0, newline)).trim();
      return { heading, markdown: newline === -1 ? '' : part.slice(newline + 1).trim() };
    }),
  };
}

export const paragraphs = (markdown: string) =>
  markdown
    .split(/\n\s*\n/)
    .map((p) => p.trim())
    .filter(Boolean);
