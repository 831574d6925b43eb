/** What owed work runs with: one value per invocation, built by the entry (the door's or the schedule's). */
import type { Config } from '../config.ts';
import type { CrmAdapter } from '../submit/crm.ts';
import type { Mailer } from '../notify/mail.ts';
import type { ConsentText, Partner } from '../notify/partner.ts';
import type { WorkTime } from './engine.ts';

export interface Ctx extends WorkTime {
  config: Config;
  partner: Partner;
  consentText: ConsentText;
  crm: CrmAdapter;
  mailer: Mailer | null;
}

/** Where sales are told: NOTIFY_EMAIL (else the partner's address) when mail is configured, and the chat webhook. */
export const salesChannels = (ctx: Ctx) => ({
  email: ctx.mailer === null ? undefined : (ctx.config.notify.emailTo ?? [ctx.partner.email]),
  chat: ctx.config.notify.chatUrl,
});
