/**
 * Messages to the sales team, by email and as a chat message {"text": ...}. Sender text is escaped for
 * the place it lands (./single-line.ts): one plain line in the email's body, no encoded word in its
 * Subject, and no markup, mention or disguised link in the chat message.
 */
import { postForOutcome } from './crm.ts';
import type { Partner } from './partner.ts';
import { logEvent } from './log.ts';
import type { SubmitDeps } from './config.ts';
import { within, type Notice, type SendResult } from './mailer.ts';
import { nextAttempt } from './attempts.ts';
import type { NotificationStatus, NotifyState, ProposalRecord } from './record.ts';
import { chatText, headerText, singleLine } from './single-line.ts';
import { signalsLine } from './spam-signals.ts';
import { sourceText } from '../../contract/source.ts';
import { agentIdentityText } from '../agent-identity/text.ts';
import { consentText } from '../../contract/consent.ts';

/** Bound of one chat post, raced against a timer as well: a dead chat service must not hold the function. */
export const CHAT_EFFECT_MS = 5_000;

/** What a new request owes: a channel is owed when it is configured. */
export function initialNotification({ notify, mailer }: Pick<SubmitDeps, 'notify' | 'mailer'>): NotificationStatus {
  return {
    email: mailer !== null && notify.emailTo.length > 0 ? 'owed' : 'not_configured',
    chat: notify.chatUrl !== undefined ? 'owed' : 'not_configured',
    attempts: 0,
  };
}

export function isOwed<S extends NotificationStatus>(status: S | undefined): status is S {
  return status !== undefined && (status.email === 'owed' || status.chat === 'owed');
}

const CRM_SENTENCE = {
  received: (r: ProposalRecord) => `The CRM (${r.delivery.crm}) has it.`,
  pending: (r: ProposalRecord) =>
    `The CRM (${r.delivery.crm}) does not have it yet: it is stored and redelivered automatically.`,
  failed: (r: ProposalRecord) =>
    `The CRM (${r.delivery.crm}) did not accept it after ${r.delivery.attempts} attempts (last error: ${r.delivery.last_error_kind ?? 'unknown'}). It is stored: find it with \`npm run inbox\` and follow up by hand.`,
} as const;

/**
 * The notice's text: company, need, outcome, timeline, id and the CRM's state. `escape` makes each
 * value the sender controls safe where it lands: singleLine for the email body, chatText for chat.
 */
export function notificationText(
  kind: 'notification' | 'alert',
  record: ProposalRecord,
  partner: Pick<Partner, 'name'>,
  escape: (value: string) => string = singleLine,
): string {
  const field = (label: string, value: string | undefined) =>
    `${label}: ${value === undefined ? '(not given)' : escape(value)}`;
  return [
    kind === 'alert'
      ? `A proposal request to ${partner.name} needs a person.`
      : `A new proposal request to ${partner.name}.`,
    field('Company', record.contact.company),
    field('Primary need', record.guidance.primary_need),
    field('Business outcome', record.intake.business_outcome),
    field('Timeline', record.intake.timeline),
    field('Came through', sourceText(record.source)),
    field('Agent identity', agentIdentityText(record.agent_identity)),
    field('Consent', consentText(record.consent)),
    `Request id: ${record.request_id}`,
    `Received at: ${record.received_at}`,
    CRM_SENTENCE[record.delivery.state](record),
    ...(kind === 'alert' && record.confirmation_email.state === 'failed'
      ? [`The confirmation email could not be sent (${record.confirmation_email.attempts ?? 0} attempts).`]
      : []),
    signalsLine(record.signals),
    '',
  ].join('\n');
}

/**
 * A message to the sales team: what it says and its Message-ID's local part. `chat`: the chat
 * message when it holds sender text, escaped for chat; otherwise the chat gets subject and text.
 */
export type SalesMessage = Omit<Notice, 'to'> & { chat?: string };

/** The notice of a new request, or the alert once its delivery failed. */
export function noticeMessage(
  kind: 'notification' | 'alert',
  record: ProposalRecord,
  partner: Pick<Partner, 'name'>,
): SalesMessage {
  const subject = (company: string) =>
    kind === 'alert'
      ? `Action needed: proposal request ${record.request_id} from ${company} was not delivered to the CRM`
      : `New proposal request from ${company} (${record.request_id})`;
  return {
    subject: subject(headerText(record.contact.company)),
    text: notificationText(kind, record, partner),
    chat: `${subject(chatText(record.contact.company))}\n${notificationText(kind, record, partner, chatText)}`,
    messageId: `${kind}-${record.request_id}`,
  };
}

/** What one attempt did on each channel: `retry` leaves it owed. */
type ChannelResults = { email: NotifyState | 'retry'; chat: NotifyState | 'retry' };

/** Sends `message` on each channel `status` still owes (a channel no longer configured is settled so); each bounded in time. */
export async function sendOnOwedChannels(
  status: NotificationStatus,
  message: SalesMessage,
  { mailer, notify }: Pick<SubmitDeps, 'mailer' | 'notify'>,
  requestId: string,
): Promise<ChannelResults> {
  const settle = async (state: NotifyState, send?: () => Promise<SendResult>) => {
    if (state !== 'owed') return state;
    return send === undefined ? 'not_configured' : send();
  };
  const { chatUrl } = notify;
  const { chat: chatMessage, ...mail } = message;
  const [email, chat] = await Promise.all([
    settle(status.email, mailer ? () => mailer.sendNotice({ ...mail, to: notify.emailTo }) : undefined),
    settle(
      status.chat,
      chatUrl === undefined
        ? undefined
        : () => postChat(chatUrl, chatMessage ?? `${mail.subject}\n${mail.text}`, requestId),
    ),
  ]);
  return { email, chat };
}

/**
 * The status after an attempt: a channel to retry stays owed until the next attempt, or `failed` once
 * the work is older than REDELIVERY_MAX_HOURS (`gaveUp`: sales are alerted where an alert is owed).
 */
export function afterAttempt<S extends NotificationStatus>(
  status: S,
  results: ChannelResults,
  since: string,
  deps: Pick<SubmitDeps, 'now' | 'redelivery'>,
): { status: S; gaveUp: boolean } {
  const at = deps.now().toISOString();
  const retry = results.email === 'retry' || results.chat === 'retry';
  const next = retry ? nextAttempt(status, since, deps) : undefined;
  const state = (result: NotifyState | 'retry'): NotifyState =>
    result !== 'retry' ? result : next?.gaveUp === true ? 'failed' : 'owed';
  const { next_attempt_at: _previous, ...rest } = status;
  return {
    status: {
      ...rest,
      email: state(results.email),
      chat: state(results.chat),
      attempts: status.attempts + 1,
      at,
      ...(next !== undefined && !next.gaveUp && { next_attempt_at: next.next_attempt_at }),
    } as S,
    gaveUp: next?.gaveUp === true,
  };
}

/** The one alert of a day on which the site-wide confirmation limit stopped an email. */
export function dailyLimitAlert(day: string, limit: number, partner: Pick<Partner, 'name'>): SalesMessage {
  return {
    subject: `Confirmation emails stopped for ${day} (UTC): the site-wide limit of ${limit} was reached`,
    text: [
      `${partner.name}'s proposal intake has sent ${limit} confirmation emails on ${day} (UTC), its CONFIRMATION_LIMIT_PER_DAY.`,
      'Requests that arrive for the rest of the day are stored and delivered to the CRM as usual, but get no',
      'confirmation email: their reply says confirmation_email "limited". Sending resumes at 00:00 UTC.',
      'If this is real demand, raise CONFIRMATION_LIMIT_PER_DAY. If it is a flood, `npm run inbox` lists the',
      'requests with their spam signals.',
      'This alert is sent once a day.',
      '',
    ].join('\n'),
    messageId: `daily-limit-${day}`,
  };
}

/** A request the person said was not theirs ("Not me"): erased here; the CRM's copy is deleted by its event or by hand. */
export function erasureNotice(
  requestId: string,
  crm: string,
  byHand: boolean,
  partner: Pick<Partner, 'name'>,
): SalesMessage {
  return {
    subject: `Proposal request ${requestId} erased: the address owner said "Not me"`,
    text: [
      `The owner of the email address of proposal request ${requestId} to ${partner.name} pressed "Not me" on the`,
      'confirmation page: the request was erased from the store. Do not contact the address about it.',
      byHand
        ? `Delete it in the CRM (${crm}) by hand: look for "Proposal request ${requestId}" on the contact.`
        : `The CRM (${crm}) is sent a deletion event for it (webhook-id ${requestId}.erased).`,
      '',
    ].join('\n'),
    messageId: `erased-${requestId}`,
  };
}

/** The digest of an hour in which more requests arrived than NOTIFY_LIMIT_PER_HOUR notices. */
export function hourlyDigest(
  hour: string,
  counts: { total: number; more: number; suspect: number },
  limit: number,
  partner: Pick<Partner, 'name'>,
): SalesMessage {
  const from = `${hour.slice(0, 10)} ${hour.slice(11, 13)}:00`;
  return {
    subject: `${counts.more} more proposal requests to ${partner.name} in the hour from ${from} UTC`,
    text: [
      `In the hour from ${from} UTC, ${counts.total} proposal requests arrived. The first ${limit} were notified one`,
      `by one (NOTIFY_LIMIT_PER_HOUR); ${counts.more} more were not, and are counted here instead.`,
      `Spam signals: ${counts.suspect} of those ${counts.more} carry links in their text or come from an address that sent more requests than it gets emails.`,
      'Every one is stored and delivered to the CRM as usual. List them, with their spam signals, with',
      '`npm run inbox` (locally) or `npm run inbox -- --site SITE_ID --token TOKEN` (the deployed site).',
      '',
    ].join('\n'),
    messageId: `digest-${hour}`,
  };
}

/** POSTs {"text": ...} like a CRM delivery: 2xx sent; 408, 429, 5xx or no answer worth a retry; other 4xx failed. */
async function postChat(url: string, text: string, requestId: string): Promise<SendResult> {
  const posting = postForOutcome(url, {
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ text }),
    signal: AbortSignal.timeout(CHAT_EFFECT_MS),
  });
  const outcome = await within(posting, CHAT_EFFECT_MS, { ok: false, kind: 'timeout' });
  if (outcome.ok) return 'sent';
  const retry = outcome.kind !== 'rejected';
  logEvent(retry ? 'notify_chat_deferred' : 'notify_chat_failed', { request_id: requestId, kind: outcome.kind });
  return retry ? 'retry' : 'failed';
}
