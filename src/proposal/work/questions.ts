/**
 * Questions the site could not answer, counted, not kept: their topic words only, at most TOPICS a day,
 * in one blob per UTC day that the tallies' clean-up deletes; the day's questions job tells sales.
 */
import { isObject, type ProposalsStore } from '../store/blobs.ts';
import { DAY_MS, windowKey, windowOf } from '../store/tally.ts';
import type { Ctx } from './context.ts';

const TOPICS = 100;
const WORDS = 6;
const STOP = new Set(
  `about after also and any are can could does for from have how into its more need our should that the their them then
  there these they this want what when where which who why will with would you your`.split(/\s+/),
);

/** The question's topic words, in order: "migrate mainframe cobol". Empty when none is left. */
function topicWords(question: string): string {
  const text = question.replace(/\S*[@:/\\]\S*|\S*\d\S*/g, ' ');
  // Lower-case words and acronyms (AWS, SAP): a capitalised word may be a name ("I am Ann Example").
  const topical = text
    .split(/[^\p{L}]+/u)
    .filter((w) => w === w.toLowerCase() || (w === w.toUpperCase() && w.length <= 6));
  const kept = topical.map((w) => w.toLowerCase()).filter((w) => w.length >= 3 && w.length <= 24 && !STOP.has(w));
  return [...new Set(kept)].slice(0, WORDS).join(' ');
}

const key = (day: string) => windowKey(windowOf('questions', new Date(`${day}T00:00:00.000Z`), DAY_MS));

export async function readTopics(store: ProposalsStore, day: string): Promise<Record<string, number>> {
  const value = (await store.read(key(day)))?.value;
  return isObject(value)
    ? (Object.fromEntries(Object.entries(value).filter(([, n]) => typeof n === 'number')) as Record<string, number>)
    : {};
}

/** Counts the topic (compare-and-swap, a few tries: a lost count is no loss); the day counted, for its job. */
export async function countQuestion(ctx: Ctx, question: string): Promise<string | undefined> {
  const topic = topicWords(question);
  if (topic === '') return undefined;
  const day = ctx.now().toISOString().slice(0, 10);
  for (let attempt = 0; attempt < 5; attempt++) {
    const found = await ctx.store.read(key(day));
    const topics = isObject(found?.value) ? (found.value as Record<string, number>) : {};
    if (!(topic in topics) && Object.keys(topics).length >= TOPICS) break;
    const next = { ...topics, [topic]: (topics[topic] ?? 0) + 1 };
    if ((await ctx.store.writeIf(key(day), next, found ? { ifVersion: found.version } : { ifNew: true })) !== null)
      break;
  }
  return day;
}
