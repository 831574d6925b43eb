/**
 * The workspace's state, apart from what the page shows: the draft and its Idempotency-Key
 * (kept in this tab, draft.ts), the last body sent per step (a retry resends exactly it), the
 * one scheduled resend, whether a request is in flight, and which flagged values the person
 * chose to send anyway.
 */
import { freshDraft, loadDraft, newKey, saveDraft, type Draft } from './draft.ts';
import type { Action } from './output.ts';

export type Body = Record<string, unknown>;

export class Session {
  draft: Draft = loadDraft();
  busy = false;
  readonly last: Partial<Record<Action, Body>> = {};
  private retryTimer: number | undefined;
  /** Flagged values the person chose to send anyway: the server's guard decides then. */
  private acknowledged = '';

  /** Keeps the typed values in the tab's draft. */
  save(fields: Record<string, string>): void {
    this.draft.fields = fields;
    saveDraft(this.draft);
  }

  /** Only after the person chose to send a reused draft as a new request. */
  renewKey(): void {
    this.draft.key = newKey();
    saveDraft(this.draft);
  }

  /** Only here does a draft start over with a new key: after the person chose to. */
  startOver(): void {
    this.cancelRetry();
    this.draft = saveDraft(freshDraft());
    this.acknowledged = '';
  }

  /** The one scheduled resend; a new one replaces it. */
  schedule(resend: () => void, seconds: number): void {
    window.clearTimeout(this.retryTimer);
    this.retryTimer = window.setTimeout(resend, seconds * 1000);
  }

  cancelRetry(): void {
    window.clearTimeout(this.retryTimer);
  }

  /** True the first time these flagged values are seen (stop and ask); false once acknowledged. */
  firstWarning(signature: string): boolean {
    if (signature === this.acknowledged) return false;
    this.acknowledged = signature;
    return true;
  }
}
