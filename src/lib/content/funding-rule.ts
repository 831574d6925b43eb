/**
 * The funding rule, for any wording: a sentence that speaks of funding, credits, program approval,
 * eligibility or amounts passes only when it frames them as a possibility ("may qualify", "if AWS
 * approves"), as the cloud provider's decision ("AWS decides", "up to AWS") or as a promise nobody
 * makes ("never guaranteed"). And a sentence about them that promises ("guarantee", "will get",
 * "every startup receives", "we secure") fails whatever framing it also has, unless the promise is
 * denied in its own clause. The corpus in tests/fixtures/funding-corpus.ts holds the wordings it is judged on.
 */
import { oncePer } from '../memo.ts';

/** The cloud provider as text names it: its short and full names, "Amazon", "the cloud provider". */
export interface ProviderNames {
  cloud_provider: string;
  cloud_provider_full_name: string;
  name: string;
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const re = (source: string) => new RegExp(source, 'gi');

/** Sentences: ends of sentences, blank lines, list items, headings, markup and JSON field breaks. */
const SENTENCE_BREAK = /[.!?](?=\s|$|["'”’)\]])|\n\s*\n|\n(?=\s*(?:[-*+]|\d+\.|#)\s)|[<>{}[\]]|",\s*"|"\s*:\s*"/g;
/** Clauses within a sentence (semicolons, colons, dashes, ", and" / ", but" ...): a denial reaches no further. */
const CLAUSE_BREAK = /[;:—–]|\s-\s|,\s+(?:and|but|so|yet|while|whereas|or)\s+/gi;

const patterns = oncePer((names: ProviderNames) => {
  const provider = `(?:${[names.cloud_provider, names.cloud_provider_full_name].map(escape).join('|')}|Amazon|the\\s+(?:cloud\\s+)?provider)`;
  const partner = escape(names.name);
  // Not the provider's name: "approved documents drawn on Amazon Bedrock" speak of no program.
  const programWord = `(?:programs?|programmes?|applications?|Activate|MAP|Migration\\s+Acceleration|funding|credits?)`;
  return {
    /** What the rule is about. */
    topic: [
      re(`\\bfund(?:ing|s|ed)?\\b`),
      re(`\\bcredits\\b`),
      re(
        `\\b(?:promotional|startup|service|cloud|${provider}|Activate)\\s+credit\\b|\\bcredit\\s+(?:awards?|amounts?|offers?)\\b`,
      ),
      re(`\\bMDF\\b|\\bco-?invest\\w*|\\binvestment\\s+amounts?\\b|\\b${provider}\\s+(?:will\\s+)?invest\\w*`),
      re(`\\b(?:qualif(?:y|ies|ied|ying)|eligib\\w*|entitled)\\b`),
      re(
        `\\b(?:give|gives|giving|awards?|awarded|grants?|granted|offers?|provides?|pays?|covers?|worth)\\s+(?:you\\s+)?(?:up\\s+to\\s+)?[$€£]\\s?\\d`,
      ),
      re(`\\b${provider}\\s+(?:\\w+\\s+)?(?:pays|covers|funds)\\b`),
      re(`\\bguaranteed\\s+place\\b`),
    ],
    /** Approval counts only beside a program, an application, funding or the provider. */
    approval: re(`\\b(?:approv\\w*|accept(?:ed|ance)|admitted)\\b`),
    programWord: re(programWord),
    /** An amount counts beside a program's name. */
    amount: re(`[$€£]\\s?\\d[\\d,.]*(?:\\s*(?:k|m|million|thousand))?\\b`),
    program: re(`\\b(?:Activate|MAP|Migration\\s+Acceleration|programs?|programmes?)\\b`),
    /** Investors' money is not the provider's (a round, seed or venture funding), nor a question about funding. */
    investors: re(
      `\\bfunding\\s+(?:rounds?|context|history|status|questions?)\\b|\\b(?:seed|series\\s+[a-e]|venture|investor|vc|equity)\\s+funding\\b|\\b(?:raise[sd]?|raising)\\s+(?:\\w+\\s+){0,2}?funding\\b|\\brefund\\w*`,
    ),
    /** The framings that make such a clause honest. */
    framing: [
      // A possibility.
      re(`\\b(?:may|might|could|possibl[ey]|potentially|perhaps|whether|if)\\b`),
      // The provider's decision.
      re(`\\b${provider}\\s+(?:\\w+\\s+){0,3}?(?:decide[sd]?|determine[sd]?|chooses?|sets)\\b`),
      re(`\\b(?:decided|determined|set)\\s+by\\s+${provider}\\b`),
      re(`\\b${provider}['’]s\\s+(?:own\\s+)?(?:decision|call|discretion|review|to\\s+decide)\\b`),
      re(
        `\\b(?:rests?|lies|is|are)\\s+with\\s+${provider}\\b|\\bbelongs?\\s+to\\s+${provider}\\b|\\bup\\s+to\\s+${provider}\\b|\\bfor\\s+${provider}\\s+to\\s+decide\\b`,
      ),
      re(`\\buntil\\s+${provider}\\s+confirms\\b|\\b${provider}\\s+confirms\\s+(?:eligibility|approval|whether)\\b`),
      re(`\\bonly\\s+${provider}\\s+can\\b|\\bsubject\\s+to\\s+${provider}\\b|\\bat\\s+its\\s+discretion\\b`),
      // A promise denied, or a warning about those who make one.
      re(
        `\\b(?:not|never|no|cannot|can['’]t|don['’]t|doesn['’]t|won['’]t|nothing|nobody|none)\\b(?!\\s+(?:just|only)\\b)(?:\\s+\\S+){0,3}?\\s+(?:guarantee\\w*|promis\\w*|assur\\w*|decide\\w*|certain)`,
      ),
      re(`\\b(?:wary|beware|careful|suspicious|skeptical|sceptical)\\s+of\\b`),
    ],
    /** A promise, whatever framing sits beside it in the sentence. */
    promise: [
      re(
        `\\b(?:guarantee[sd]?|promise[sd]?|ensures?|assured?|certain(?:ly)?|definitely|sure\\s+to|make\\s+sure|entitled\\s+to|always)\\b`,
      ),
      re(
        `\\b(?:will|['’]ll|shall|(?:is|are)\\s+going\\s+to)\\s+(?:\\w+\\s+){0,2}?(?:get|receive|obtain|secure|win|unlock|land|qualify|approve|award|fund|grant|give|pay|cover|be\\s+(?:approved|funded|awarded|granted|eligible|accepted))\\b`,
      ),
      re(
        `\\b(?:every|each|all)\\s+(?:\\w+\\s+){0,2}?(?:startups?|customers?|clients?|companies|engagements?|migrations?|teams?)\\b(?:\\s+\\w+){0,6}?\\s+(?:gets?|receives?|qualif(?:y|ies)|(?:is|are)\\s+(?:approved|eligible|funded))\\b`,
      ),
      re(
        `\\b(?:for|to)\\s+(?:every|each|all)\\s+(?:\\w+\\s+){0,2}?(?:startups?|customers?|clients?|companies|engagements?|migrations?|assessments?|teams?)\\b`,
      ),
      re(
        `\\b(?:we|we['’]ll|${partner})\\s+(?:\\w+\\s+){0,2}?(?:get|gets|secure|secures|obtain|obtains|win|wins|unlock|unlocks|land|lands|deliver|delivers|arrange|arranges)\\b`,
      ),
      re(`\\b(?:unlocks?|comes?\\s+with|includes?|included|yours)\\b`),
      re(
        `\\byou(?:['’]re|\\s+are)?\\s+(?:now\\s+)?(?:approved|eligible|entitled|qualif(?:y|ied))\\b|\\b(?:is|are)\\s+(?:now\\s+)?(?:approved|eligible|entitled|funded)\\b`,
      ),
      re(`\\bfree\\s+(?:${provider}\\s+)?(?:credits|funding)\\b|\\b(?:have|has)\\s+won\\b`),
      re(`(?:^|\\band\\s+|\\bto\\s+|\\bthen\\s+)(?:get|claim|receive|unlock|secure|win|expect)\\b`),
      re(`\\b${provider}\\s+(?:itself\\s+)?(?:pays|covers|funds|awards|grants|gives|approves|provides)\\b`),
      re(`\\b(?:receive|get|gets)\\s+(?:\\w+\\s+){0,3}?(?:credits|funding)\\b`),
    ],
    /** A denial just before a promise word, or a warning about those who make one. */
    denial: new RegExp(
      `(?:\\b(?:not|never|no|cannot|can['’]t|don['’]t|doesn['’]t|won['’]t|nothing|nobody|none|neither|nor)\\b(?!\\s+(?:just|only)\\b)(?:\\s+\\S+){0,3}\\s*|\\b(?:wary|beware|careful|suspicious|skeptical|sceptical)\\s+of\\s+(?:\\w+\\s+){0,3}?)$`,
      'i',
    ),
    /** A promise conditional on the provider ("if AWS approves, ..."). */
    conditional: new RegExp(`\\b(?:if|once|when|unless|until)\\b[^,]*\\b${provider}\\b`, 'i'),
  };
});

type Span = { index: number; length: number };

/** Each match of `patterns` in `text`, with its offset. */
function matches(text: string, list: RegExp[]): Span[] {
  return list.flatMap((pattern) => [...text.matchAll(pattern)].map((m) => ({ index: m.index, length: m[0].length })));
}

/** [start, end) offsets of the parts of `text` between `breaks`. */
function parts(text: string, breaks: RegExp, offset = 0): Span[] {
  const out: Span[] = [];
  let at = 0;
  for (const m of text.matchAll(breaks)) {
    out.push({ index: offset + at, length: m.index - at });
    at = m.index + m[0].length;
  }
  out.push({ index: offset + at, length: text.length - at });
  return out.filter((p) => text.slice(p.index - offset, p.index - offset + p.length).trim() !== '');
}

/** The offsets of what speaks of funding, credits, approval or amounts in `clause`. */
function topics(clause: string, sentence: string, p: ReturnType<typeof patterns>): Span[] {
  const investors = matches(clause, [p.investors]);
  const outside = (s: Span) => !investors.some((i) => s.index >= i.index && s.index < i.index + i.length);
  const found = matches(clause, p.topic).filter(outside);
  if (matches(clause, [p.programWord]).filter(outside).length > 0) found.push(...matches(clause, [p.approval]));
  if (matches(sentence, [p.program]).length > 0) found.push(...matches(clause, [p.amount]));
  return found.sort((a, b) => a.index - b.index);
}

/** Where `text` promises funding, credits, approval or amounts: one span per offending clause or promise. */
export function fundingPromises(text: string, names: ProviderNames): Span[] {
  const p = patterns(names);
  const found: Span[] = [];
  for (const sentence of parts(text, SENTENCE_BREAK)) {
    const s = text.slice(sentence.index, sentence.index + sentence.length);
    const clauses = parts(s, CLAUSE_BREAK);
    const about = clauses.map((c) => topics(s.slice(c.index, c.index + c.length), s, p));
    if (about.every((t) => t.length === 0)) continue;
    // A promise anywhere in a sentence about the subject, unless denied or conditional on the provider.
    const promises = matches(s, p.promise).filter((m) => {
      const clause = clauses.find((c) => m.index >= c.index && m.index < c.index + c.length) ?? sentence;
      const before = s.slice(clause.index, m.index);
      const span = s.slice(m.index, m.index + m.length);
      const hedged = /\b(?:may|might|could)\b/i.test(span) || /\bwhether\b/i.test(before);
      return !p.denial.test(before) && !hedged && !p.conditional.test(before + span);
    });
    if (promises.length > 0) {
      const first = promises.sort((a, b) => a.index - b.index)[0]!;
      found.push({ index: sentence.index + first.index, length: first.length });
      continue;
    }
    // Without a promise, the sentence frames what it says of the subject.
    if (matches(s, p.framing).length > 0) continue;
    const c = clauses.findIndex((_, i) => about[i]!.length > 0);
    found.push({ index: sentence.index + clauses[c]!.index + about[c]![0]!.index, length: about[c]![0]!.length });
  }
  return found;
}
