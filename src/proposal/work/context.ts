/** What owed work runs with: one value per invocation, built by the entry (the door's or the schedule's). */
import type { Config } from '../config.ts';
import type { LogFields } from '../log.ts';
import { crmCall, type CrmAdapter, type CrmOutcome } from '../submit/crm.ts';
import type { Channels, CrmFailureKind, NotifyState } from '../submit/record.ts';
import { MAIL_EFFECT_MS, type Mail, type Mailer, type SendResult } from '../notify/mail.ts';
import { CHAT_EFFECT_MS, postChat } from '../notify/chat.ts';
import type { SalesMessage } from '../notify/messages.ts';
import type { ConsentText, Partner } from '../notify/partner.ts';
import type { Outcome, Owned, Owner, WorkTime } from './engine.ts';

export interface Ctx extends WorkTime {
  config: Config;
  partner: Partner;
  consentText: ConsentText;
  crm: CrmAdapter;
  mailer: Mailer | null;
  /** The receivers (a chat webhook, the SMTP server) that failed in this scheduled run. */
  unreachable?: Set<string>;
}

/** Sends through `where` unless it failed in this run: messages to a receiver that is down wait for the next run. */
async function reaching(ctx: Ctx, where: string, send: () => Promise<SendResult>): Promise<SendResult> {
  if (ctx.unreachable?.has(where)) return 'retry';
  const result = await send();
  if (result === 'retry') ctx.unreachable?.add(where);
  return result;
}

/** One CRM call within the claim: a refusal of any kind is a retry (consented data is never dropped). */
export async function askCrm<R extends Owned>(
  ctx: Ctx,
  owner: Owner<R, Ctx>,
  call: (signal: AbortSignal) => Promise<CrmOutcome>,
  done: (r: R, reference?: string) => R,
  note?: (r: R, kind: CrmFailureKind) => R,
): Promise<Outcome<R>> {
  owner.beforeEffect(ctx.config.crmTimeoutMs);
  const outcome = await crmCall(ctx.config.crmTimeoutMs, call);
  if (outcome.ok) return { done: (r) => done(r, outcome.reference) };
  return {
    retry: true,
    reason: outcome.kind,
    ...(outcome.retryAfterSeconds !== undefined && { afterMs: outcome.retryAfterSeconds * 1000 }),
    ...(note !== undefined && { note: (r: R) => note(r, outcome.kind) }),
  };
}

/** Where sales are told: NOTIFY_EMAIL (else the partner's address) when mail is configured, and the chat webhook. */
const salesChannels = (ctx: Ctx) => ({
  email: ctx.mailer === null ? undefined : (ctx.config.notify.emailTo ?? [ctx.partner.email]),
  chat: ctx.config.notify.chatUrl,
});

const held = (s: NotifyState): NotifyState => (s === 'owed' ? 'in_digest' : s);
/** Every channel still owed, told by the hour's digest instead. */
export const inDigest = (c: Channels): Channels => ({ email: held(c.email), chat: held(c.chat) });

/** What a new request or job owes sales: each configured channel. */
export const owedChannels = (ctx: Ctx): Channels => {
  const to = salesChannels(ctx);
  return {
    email: to.email?.length ? 'owed' : 'not_configured',
    chat: to.chat === undefined ? 'not_configured' : 'owed',
  };
};

export const sendMail = <R extends Owned>(ctx: Ctx, owner: Owner<R, Ctx>, mail: Mail, fields: LogFields) =>
  reaching(ctx, 'smtp', () => {
    owner.beforeEffect(MAIL_EFFECT_MS);
    return ctx.mailer!.send(mail, fields);
  });

/** Sends one channel of a sales message (`id` its webhook-id); 'not_configured' when that channel no longer is. */
export async function tellSales<R extends Owned>(
  ctx: Ctx,
  owner: Owner<R, Ctx>,
  channel: keyof Channels,
  message: SalesMessage,
  id: string,
  fields: LogFields,
) {
  const to = salesChannels(ctx)[channel];
  if (to === undefined) return 'not_configured' as const;
  const { chat, ...mail } = message;
  if (channel === 'email') return sendMail(ctx, owner, { ...mail, to }, fields);
  return reaching(ctx, to as string, () => {
    owner.beforeEffect(CHAT_EFFECT_MS);
    return postChat(to as string, chat, id);
  });
}
