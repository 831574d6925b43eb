/**
 * What the confirmation pages (/confirm/yes, /confirm/not-me) say to a person: the request a link
 * names and its state when the page opens, the outcome of the press, and a refused link, as views both
 * the page's script and the function's no-JavaScript reply page render. Browser-safe.
 */
import { CONSENT_LINK_HOURS } from '../../contract/consent-links.ts';
import { personalTime } from '../../text/personal-time.ts';
import type { ReplyView, ViewElement, ViewNode, ViewTag } from '../workspace/reply-view.ts';

// The confirmation pages' script shares no module with the workspace's (each page loads one module
// of its own), so the reply views' element constructor and the problem-type check are repeated here.
const el = (tag: ViewTag, attrs: Record<string, string> | null, ...children: ViewNode[]): ViewElement => ({
  tag,
  attrs: attrs ?? {},
  children,
});
/** contract/http.ts's isProblemType: a problem's `type` URI ends in its anchor. */
const isProblemType = (uri: string | undefined, type: string): boolean => uri?.endsWith(`#problem-${type}`) === true;

export type LinkAnswer = 'confirm' | 'deny';

/** The check_link reply: what a link names, and whether it can still be used. */
export interface LinkCheck {
  status: 'valid' | 'used' | 'expired';
  answered?: LinkAnswer;
  company?: string;
  received_at?: string;
  choices?: string[];
  /** Only for a draft an AI assistant asks the person to confirm before it is sent. */
  consent_text?: string;
}

/** The partner as the pages name it. */
export interface Partner {
  name: string;
  email: string;
}

/** A view of the page, and whether its button may be pressed. */
export type LinkView = ReplyView & { canPress: boolean };

/** The request a link names, as a short list; nothing when the reply names none (a request already deleted). */
function theRequest(c: LinkCheck): ViewNode {
  if (c.company === undefined || c.received_at === undefined) return null;
  const draft = c.consent_text !== undefined;
  const rows: [string, string][] = [
    ['Company', c.company],
    [draft ? 'Prepared by your AI assistant' : 'Sent', personalTime(c.received_at)],
    ...(c.choices && c.choices.length > 0 ? [['About', c.choices.join('; ')] as [string, string]] : []),
  ];
  return el(
    'dl',
    { class: 'link-request' },
    ...rows.map(([term, value]) => [el('dt', null, term), el('dd', null, value)]),
  );
}

/** A link's lifetime in words: "24 hours", "30 days". */
const days = (hours: number) => (hours > 48 && hours % 24 === 0 ? `${hours / 24} days` : `${hours} hours`);
const writeTo = (p: Partner) => el('a', { href: `mailto:${p.email}` }, p.email);

/** The page as it opens without JavaScript (and while the script asks what the link names). */
export function linkPageView(answer: LinkAnswer, p: Partner): LinkView {
  return answer === 'confirm'
    ? {
        title: 'Confirm your proposal request',
        body: [
          el(
            'p',
            { class: 'lead' },
            `A proposal request to ${p.name} names your email address. If you sent it, press the button: ${p.name} then knows the request comes from you.`,
          ),
          el(
            'p',
            null,
            'Nothing changes until you press the button. If you did not send it, use the "Not me" link in the same email instead; it works even after a "Yes".',
          ),
        ],
        canPress: true,
      }
    : {
        title: 'Not your proposal request?',
        body: [
          el(
            'p',
            { class: 'lead' },
            `A proposal request was sent to ${p.name} with your email address. If you did not send it, press the button: the request is deleted and ${p.name} will not contact you about it.`,
          ),
          el(
            'p',
            null,
            'Nothing changes until you press the button. It also withdraws a request you confirmed earlier with "Yes, this was me".',
          ),
        ],
        canPress: true,
      };
}

/** An expired link, and what is still possible; `answer` unknown (the no-JS reply page) names both links' times. */
function expiredView(answer: LinkAnswer | undefined, request: ViewNode, p: Partner): LinkView {
  const yes = `"Yes, this was me" works for ${days(CONSENT_LINK_HOURS.confirm)}`;
  const notMe = `"Not me" works for ${days(CONSENT_LINK_HOURS.deny)}`;
  return {
    title: 'This link has expired',
    body: [
      request,
      el(
        'p',
        { class: 'lead' },
        answer === 'confirm'
          ? `${yes}. Nothing was changed: the request stays as it was sent, and ${p.name} replies by email.`
          : answer === 'deny'
            ? `${notMe}. Nothing was changed.`
            : `${yes}, ${notMe}. Nothing was changed.`,
      ),
      answer === 'confirm'
        ? el('p', null, 'If you did not send it, the "Not me" link in the same email still works.')
        : el('p', null, 'To have the request deleted, write to ', writeTo(p), ' from this email address.'),
    ],
    canPress: false,
  };
}

/** The page once the script knows what the link names: the request, and whether the button still does anything. */
export function linkStateView(answer: LinkAnswer, c: LinkCheck, p: Partner): LinkView {
  const request = theRequest(c);
  const notMeNote = el(
    'p',
    null,
    `If it was not you, the "Not me" link in the same email deletes the request, for ${days(CONSENT_LINK_HOURS.deny)} after it was sent, even after a "Yes".`,
  );
  if (c.answered === 'deny')
    return {
      title: 'This request was deleted',
      body: [
        el(
          'p',
          { class: 'lead' },
          `"Not me" was pressed for this request, so it was deleted and ${p.name} will not contact you about it. Nothing else is needed from you.`,
        ),
        el('p', null, 'Sent it after all? Send it again from the proposal page.'),
      ],
      canPress: false,
    };
  if (c.status === 'expired') return expiredView(answer, request, p);
  if (answer === 'confirm') {
    if (c.status === 'used')
      return {
        title: 'You confirmed this request',
        body: [
          request,
          el(
            'p',
            { class: 'lead' },
            `${p.name} knows the request comes from you. Nothing else is needed from you; ${p.name} replies by email.`,
          ),
          notMeNote,
        ],
        canPress: false,
      };
    const draft = c.consent_text !== undefined;
    return {
      title: 'Confirm your proposal request',
      body: [
        request,
        el(
          'p',
          { class: 'lead' },
          draft
            ? `Your AI assistant wants to send this request to ${p.name} for you. If you want it sent, press the button: your assistant then sends it.`
            : `If you sent this request, press the button: ${p.name} then knows it comes from you.`,
        ),
        draft && [
          el('p', null, 'By pressing it you agree to this:'),
          el('p', { class: 'consent-quote' }, c.consent_text ?? ''),
        ],
        el(
          'p',
          null,
          draft
            ? 'Nothing is sent until you press the button.'
            : 'Nothing changes until you press the button. If you did not send it, use the "Not me" link in the same email instead.',
        ),
      ],
      canPress: true,
    };
  }
  if (c.status === 'used')
    return {
      title: 'This request was deleted',
      body: [
        el(
          'p',
          { class: 'lead' },
          `This link was already used: the request was deleted and ${p.name} will not contact you about it. Nothing else is needed from you.`,
        ),
      ],
      canPress: false,
    };
  return {
    title: c.answered === 'confirm' ? 'Withdraw your proposal request?' : 'Not your proposal request?',
    body: [
      request,
      el(
        'p',
        { class: 'lead' },
        c.answered === 'confirm'
          ? `This request was confirmed with "Yes, this was me". If that was a mistake, or you changed your mind, press the button: the request is deleted and ${p.name} will not contact you about it.`
          : `If you did not send this request, press the button: it is deleted and ${p.name} will not contact you about it.`,
      ),
      el('p', null, 'Nothing changes until you press the button.'),
    ],
    canPress: true,
  };
}

/** The confirm_request and deny_request reply. */
export interface AnswerReply {
  status: 'confirmed' | 'erased';
  message?: string;
}

/** After the press: what happened, and what is still possible. `draft`: the page confirmed an AI assistant's draft. */
export function answeredView(reply: AnswerReply, p: Partner, draft = false): ReplyView {
  if (reply.status === 'erased')
    return {
      title: 'Request deleted',
      body: [
        el('p', null, reply.message ?? `The request has been deleted, and ${p.name} will not contact you about it.`),
      ],
    };
  return {
    title: 'Request confirmed',
    body: [
      el('p', null, reply.message ?? 'Thank you: your request is confirmed as yours.'),
      draft
        ? el('p', null, 'Go back to your AI assistant: it sends the request now.')
        : el(
            'p',
            null,
            `Changed your mind? The "Not me" link in the same email still withdraws it and deletes the request, for ${days(CONSENT_LINK_HOURS.deny)} after it was sent.`,
          ),
    ],
  };
}

/** A refused press or check, in people's words; `retry`: only a failure on the site's side may be tried again. */
export function linkProblemView(
  problem: { type?: string } | null,
  status: number,
  answer: LinkAnswer | undefined,
  p: Partner,
): ReplyView & { retry: boolean } {
  const is = (type: string) => isProblemType(problem?.type, type);
  if (is('confirmation-link-used'))
    return {
      title: 'This link was already used',
      body: [el('p', null, 'The answer given with it stands; nothing was changed.')],
      retry: false,
    };
  if (is('confirmation-link-expired')) return { ...expiredView(answer, null, p), retry: false };
  if (status >= 400 && status < 500 && !is('idempotency-key-in-use') && !is('rate-limited'))
    return {
      title: 'This link does not work',
      body: [
        el(
          'p',
          null,
          'It may have been cut short or mistyped, or the request it names no longer exists. Nothing was changed.',
        ),
        el(
          'p',
          null,
          'Open the link from the confirmation email exactly as it was sent. If it still does not work, write to ',
          writeTo(p),
          '.',
        ),
      ],
      retry: false,
    };
  return {
    title: 'Our site could not record your answer',
    body: [
      el(
        'p',
        null,
        'The fault is on our side, not in your link. Nothing was changed: press the button again in a minute.',
      ),
    ],
    retry: true,
  };
}
