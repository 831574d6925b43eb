/**
 * Reading the three request headers of Web Bot Auth before any key is fetched: which signature is
 * the Web Bot Auth one (Signature-Input), what it covers and claims, and which operator the
 * Signature-Agent header names, in both of its forms:
 * - the earlier string form live agents send: `Signature-Agent: "https://chatgpt.com"`, covered as `"signature-agent"`;
 * - the Structured-Fields dictionary of draft-ietf-webbotauth-httpsig-protocol-00:
 *   `Signature-Agent: agent1="https://…"`, covered as `"signature-agent";key="agent1"`.
 */
import { isInnerList, parseDictionary, parseItem, serializeItem, Token, type BareItem } from 'structured-headers';
import { WEB_BOT_AUTH_TAG } from '../../contract/web-bot-auth.ts';

export interface WebBotAuthInput {
  label: string;
  /** `key`: the dictionary member covered (`"signature-agent";key="agent1"`). */
  components: { name: string; key?: string }[];
  /** The RFC 9421 identifiers of the components, as stored (`"@authority"`). */
  covered: string[];
  created?: number;
  expires?: number;
  keyid?: string;
  nonce?: string;
  alg?: string;
}

/** A fixed phrase for the stored `reason`: never text taken from the request. */
export type Refusal = { refused: string };

/** Most signatures and components read: a Web Bot Auth signature covers two or three. */
const MAX_LABELS = 8;
const MAX_COMPONENTS = 24;

/** The Structured-Fields dictionary a header holds, or undefined when it holds none. */
export function dictionaryOf(header: string) {
  try {
    return parseDictionary(header);
  } catch {
    return undefined;
  }
}

/** The first member of Signature-Input tagged web-bot-auth: the one this profile checks. */
export function webBotAuthInput(signatureInput: string): WebBotAuthInput | Refusal {
  const dictionary = dictionaryOf(signatureInput);
  if (dictionary === undefined) return { refused: 'Signature-Input is not a valid structured field' };
  if (dictionary.size > MAX_LABELS) return { refused: 'too many signatures' };
  for (const [label, member] of dictionary) {
    if (!isInnerList(member) || member[1].get('tag') !== WEB_BOT_AUTH_TAG) continue;
    const [items, params] = member;
    if (items.length > MAX_COMPONENTS) return { refused: 'too many covered components' };
    if (items.some(([name]) => typeof name !== 'string'))
      return { refused: 'Signature-Input names a component that is not a string' };
    return {
      label,
      components: items.map(([name, p]) => ({ name: name as string, ...strings(p, ['key']) })),
      covered: items.map(([name, p]) => serializeItem([name, p])),
      ...integers(params, ['created', 'expires']),
      ...strings(params, ['keyid', 'nonce', 'alg']),
    };
  }
  return { refused: `no signature is tagged ${WEB_BOT_AUTH_TAG}` };
}

/** The named parameters that are strings (or integers), the others left out. */
const strings = <K extends string>(params: Map<string, BareItem>, names: K[]) =>
  Object.fromEntries(names.flatMap((n) => (typeof params.get(n) === 'string' ? [[n, params.get(n)]] : []))) as Partial<
    Record<K, string>
  >;
const integers = <K extends string>(params: Map<string, BareItem>, names: K[]) =>
  Object.fromEntries(names.flatMap((n) => (Number.isInteger(params.get(n)) ? [[n, params.get(n)]] : []))) as Partial<
    Record<K, number>
  >;

export const covers = (input: WebBotAuthInput, name: string) => input.components.some((c) => c.name === name);

/**
 * The operator URL the signature vouches for: the Signature-Agent member it covers (the dictionary
 * form), or the whole header (the string form). An uncovered Signature-Agent vouches for nothing.
 */
export function signedOperator(header: string | null, input: WebBotAuthInput): string | Refusal {
  if (header === null) return { refused: 'no Signature-Agent names the key directory' };
  const component = input.components.find((c) => c.name === 'signature-agent');
  if (component === undefined) return { refused: 'the signature does not cover signature-agent' };
  if (component.key !== undefined) {
    const member = dictionaryOf(header)?.get(component.key);
    if (member !== undefined && !isInnerList(member) && typeof member[0] === 'string') return member[0];
    return { refused: 'the covered Signature-Agent member is not a URL string' };
  }
  try {
    const [value] = parseItem(header);
    if (typeof value === 'string') return value;
    // A bare URL is not a Structured Field, but a few early signers sent one.
    if (value instanceof Token) return header.trim();
  } catch {
    if (/^https?:\/\/[^\s"]+$/.test(header.trim())) return header.trim();
  }
  // The dictionary form covered whole: it vouches for an operator when it names only one.
  const members = [...(dictionaryOf(header)?.values() ?? [])];
  const urls = members.flatMap((m) => (!isInnerList(m) && typeof m[0] === 'string' ? [m[0]] : []));
  if (urls.length === 1) return urls[0]!;
  return { refused: 'Signature-Agent names no single operator URL' };
}
