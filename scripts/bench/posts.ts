/**
 * Generated blog posts for the build benchmark: valid post frontmatter and a few paragraphs
 * of plain prose that obey the content rules (no launches figures, no company counts, no promises
 * of funding or credits, the partner never called the cloud provider). Deterministic: the same
 * index always gives the same post.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const TOPICS = [
  'cost visibility',
  'landing zones',
  'observability',
  'incident response',
  'data pipelines',
  'container platforms',
  'serverless workloads',
  'identity and access',
  'backup and recovery',
  'network design',
  'database migration',
  'release automation',
  'capacity planning',
  'log retention',
  'tagging policies',
  'multi-account setups',
];
const ANGLES = [
  'A practical guide to',
  'Five questions about',
  'Getting started with',
  'Lessons from reviewing',
  'Common mistakes in',
  'Measuring progress in',
  'A checklist for',
  'Planning a quarter of',
];
const AUTHORS = [
  'Priya Raman, Principal Architect',
  'Hannah Okafor, Head of Delivery',
  'Tomás Lindqvist, Contact Center Lead',
];
const TAGS = [
  'planning',
  'security',
  'reliability',
  'cost',
  'operations',
  'data',
  'migration',
  'automation',
  'governance',
];

/** Sentences with a {topic} slot; none mentions money, programs, launches or the provider. */
const SENTENCES = [
  'Most teams start {topic} work with a tool in mind, but the better starting point is the result they need.',
  'Write down who depends on the system and what an hour of disruption costs before changing anything.',
  'A short baseline of the current numbers makes it possible to tell a real improvement from a quiet month.',
  'Keep the first step small enough that one engineer can finish it in a week and explain it to the rest of the team.',
  'Good {topic} practice is mostly boring: clear owners, written runbooks and a review on a fixed date.',
  'Automate the checks that people forget, and leave judgement calls to the people who carry the pager.',
  'When a decision is hard to reverse, record why it was made and what would make you revisit it.',
  'Share drafts through your normal internal channels, and keep anything sensitive out of public forms.',
  'The useful output of a review is a ranked list of changes, each with an owner and a rough estimate.',
  'Revisit the plan after a few months and compare the numbers with the baseline you wrote down.',
  'Teams that document {topic} decisions spend less time repeating old debates when people change roles.',
  'Start with the workload that matters most to customers and has changed most recently.',
  'Dashboards help only when someone looks at them; tie each one to a question the team actually asks.',
  'Expect some findings to be uncomfortable, and treat them as input for the next plan rather than as blame.',
  'If the team is unsure where to begin, a half-day workshop on {topic} usually surfaces the top three risks.',
  'Small, frequent changes are easier to review and easier to roll back than one large change at the end.',
];

/** mulberry32: a tiny seeded generator, so the posts are the same on every run. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const pick = <T>(items: readonly T[], rnd: () => number): T => items[Math.floor(rnd() * items.length)] as T;
const pad = (n: number, width: number) => String(n).padStart(width, '0');

export function generatedPost(index: number): { file: string; text: string } {
  const rnd = random(index + 1);
  const topic = TOPICS[index % TOPICS.length] as string;
  const angle = ANGLES[Math.floor(index / TOPICS.length) % ANGLES.length] as string;
  const title = `${angle} ${topic}, part ${index + 1}`;
  const slug = `bench-${pad(index + 1, 4)}-${title
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')}`;
  const published = `${2023 + (index % 3)}-${pad(1 + (index % 12), 2)}-${pad(1 + (index % 28), 2)}`;
  const tags = [...new Set([pick(TAGS, rnd), pick(TAGS, rnd), pick(TAGS, rnd)])];
  const paragraphs = Array.from({ length: 3 + Math.floor(rnd() * 3) }, () =>
    Array.from({ length: 3 + Math.floor(rnd() * 3) }, () => pick(SENTENCES, rnd).replaceAll('{topic}', topic)).join(
      ' ',
    ),
  );
  const text = [
    '---',
    'kind: post',
    `title: "${title}"`,
    `description: "Notes on ${topic} for teams planning their next quarter of cloud work."`,
    `author: ${pick(AUTHORS, rnd)}`,
    `published: "${published}"`,
    'tags:',
    ...tags.map((t) => `  - ${t}`),
    '---',
    '',
    paragraphs.join('\n\n'),
    '',
  ].join('\n');
  return { file: `${slug}.md`, text };
}

/** Writes `count` generated posts into `<contentDir>/blog/`. */
export function writeGeneratedPosts(contentDir: string, count: number): void {
  const blog = join(contentDir, 'blog');
  mkdirSync(blog, { recursive: true });
  for (let i = 0; i < count; i++) {
    const { file, text } = generatedPost(i);
    writeFileSync(join(blog, file), text);
  }
}
