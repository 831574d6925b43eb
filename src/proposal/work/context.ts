/** What owed work runs with: one value per invocation, built by the entry (the door's or the schedule's). */
import type { Config } from '../config.ts';
import type { CrmAdapter } from '../submit/crm.ts';
import type { Mailer, SendResult } from '../notify/mail.ts';
import type { ConsentText, Partner } from '../notify/partner.ts';
import type { WorkTime } from './engine.ts';

export interface Ctx extends WorkTime {
  config: Config;
  partner: Partner;
  consentText: ConsentText;
  crm: CrmAdapter;
  mailer: Mailer | null;
  /** The receivers (a chat webhook, the SMTP server) that failed in this scheduled run. */
  unreachable?: Set<string>;
}

/**
 * Sends through `where` unless it already failed in this run: the run's other messages to a receiver
 * that is down wait for the next run (a retry, as its own failure would be), rather than spend the
 * run's time on it one timeout after another while the leads behind them wait.
 */
export async function reaching(ctx: Ctx, where: string, send: () => Promise<SendResult>): Promise<SendResult> {
  if (ctx.unreachable?.has(where)) return 'retry';
  const result = await send();
  if (result === 'retry') ctx.unreachable?.add(where);
  return result;
}

/** Where sales are told: NOTIFY_EMAIL (else the partner's address) when mail is configured, and the chat webhook. */
export const salesChannels = (ctx: Ctx) => ({
  email: ctx.mailer === null ? undefined : (ctx.config.notify.emailTo ?? [ctx.partner.email]),
  chat: ctx.config.notify.chatUrl,
});
