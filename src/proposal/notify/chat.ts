/** The sales team's chat webhook, `{"text": …}` (Slack, Mattermost, Google Chat, Teams workflows). */
import { logEvent } from '../log.ts';
import { TIMED_OUT, within } from '../store/blobs.ts';
import { postForOutcome } from './post.ts';
import type { SendResult } from './mail.ts';

export const CHAT_EFFECT_MS = 5_000;

/** 2xx sent; 408, 429, 5xx or no answer worth a retry; other 4xx failed. */
export async function postChat(url: string, text: string, id: string): Promise<SendResult> {
  const posting = postForOutcome(url, {
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ text }),
    signal: AbortSignal.timeout(CHAT_EFFECT_MS),
  });
  const outcome = await within(posting, CHAT_EFFECT_MS);
  if (outcome !== TIMED_OUT && outcome.ok) return 'sent';
  const kind = outcome === TIMED_OUT ? 'timeout' : outcome.kind;
  logEvent(kind === 'rejected' ? 'chat_failed' : 'chat_deferred', { id, kind });
  return kind === 'rejected' ? 'failed' : 'retry';
}
