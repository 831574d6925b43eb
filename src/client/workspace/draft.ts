/**
 * The draft of one proposal request, kept in sessionStorage (this tab only, gone when it closes):
 * field values, the Idempotency-Key, when the form was first shown, and once it is sent, its outcome.
 * A reload therefore resends with the same key, so the server never stores the request twice, and
 * a sent request's reload shows its outcome, not the filled-in form again.
 */
import type { Sender, SubmitReply } from '../../shared/workspace/reply-view.ts';

export interface Sent {
  reply: SubmitReply;
  who: Sender;
  /** The body that was sent: "Try now" on a pending request sends exactly it again. */
  body: Record<string, unknown>;
}

export interface Draft {
  key: string;
  /** ms since the epoch when this draft's form was first shown (the server's fill-time check). */
  started: number;
  fields: Record<string, string>;
  sent?: Sent;
}

const STORAGE_KEY = 'proposal-workspace-draft';

export function newKey(): string {
  // randomUUID needs a secure context; getRandomValues works everywhere.
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');
}

export const freshDraft = (): Draft => ({ key: newKey(), started: Date.now(), fields: {} });

function isSent(value: unknown): value is Sent {
  const s = (typeof value === 'object' && value !== null ? value : {}) as Partial<Record<keyof Sent, unknown>>;
  return [s.reply, s.who, s.body].every((v) => typeof v === 'object' && v !== null);
}

function isDraft(value: unknown): value is Draft {
  const d = (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>;
  return (
    typeof d['key'] === 'string' &&
    d['key'] !== '' &&
    typeof d['started'] === 'number' &&
    typeof d['fields'] === 'object' &&
    d['fields'] !== null &&
    Object.values(d['fields']).every((v) => typeof v === 'string') &&
    (d['sent'] === undefined || isSent(d['sent']))
  );
}

export function loadDraft(): Draft {
  try {
    const stored: unknown = JSON.parse(sessionStorage.getItem(STORAGE_KEY) ?? 'null');
    if (isDraft(stored)) return stored;
  } catch {
    // Storage blocked or corrupt: start over rather than fail.
  }
  return saveDraft(freshDraft());
}

export function saveDraft(draft: Draft): Draft {
  try {
    sessionStorage.setItem(STORAGE_KEY, JSON.stringify(draft));
  } catch {
    // Storage blocked (private mode, quota): the page still works, only reloads forget.
  }
  return draft;
}
