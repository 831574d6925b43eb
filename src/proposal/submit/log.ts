/**
 * One JSON line per event, at the event's level; fields are ids, kinds, codes and variable names only,
 * so logs hold no personal data. The level is the console method (Netlify shows INFO, WARN, ERROR by it)
 * and the line's `level`.
 */
export type LogFields = Record<string, string | number | boolean | undefined>;

/** `info`: normal work worth a line; `warn`: a failure the function retries by itself; `error`: a person should look. */
export type LogLevel = 'info' | 'warn' | 'error';

/** Every event's level, in one place: an event not named here does not compile. */
const EVENT_LEVELS = {
  sweep_done: 'info',
  digest_sent: 'info',
  notice_in_digest: 'info',
  confirmation_email_limited: 'info',
  consent_confirmed: 'info',
  consent_denied: 'info',
  consent_link_refused: 'info',
  consent_hold_expired: 'info',
  job_owed: 'info',
  follow_up_left_to_sweep: 'info',
  lease_lost: 'warn',
  store_unavailable: 'warn',
  address_count_failed: 'warn',
  crm_delivery_pending: 'warn',
  confirmation_email_deferred: 'warn',
  confirmation_email_failed: 'warn',
  notify_email_deferred: 'warn',
  notify_chat_deferred: 'warn',
  job_attempted: 'warn',
  retention_kept_owed_request: 'warn',
  crm_delivery_failed: 'error',
  crm_misconfigured: 'error',
  crm_not_accepted_here: 'error',
  record_unreadable: 'error',
  job_failed: 'error',
  confirmation_email_given_up: 'error',
  notification_given_up: 'error',
  alert_given_up: 'error',
  config_missing: 'error',
  config_invalid: 'error',
  notify_email_failed: 'error',
  notify_chat_failed: 'error',
  sweep_error: 'error',
  sweep_request_error: 'error',
  unexpected_error: 'error',
  mcp_error: 'error',
} as const satisfies Record<string, LogLevel>;

export type LogEvent = keyof typeof EVENT_LEVELS;

const WRITE: Record<LogLevel, (line: string) => void> = {
  info: (line) => console.info(line),
  warn: (line) => console.warn(line),
  error: (line) => console.error(line),
};

function write(level: LogLevel, event: string, fields: object): void {
  WRITE[level](JSON.stringify({ source: 'proposal-submit', level, event, ...fields }));
}

export function logEvent(event: LogEvent, fields: LogFields = {}): void {
  write(EVENT_LEVELS[event], event, fields);
}

/**
 * An error nobody expected (a bug, or a failure no code path names), at level error: its class, its
 * `code` and its stack frames, never its message, which may quote request data (an address, a field).
 */
export function logError(event: LogEvent, error: unknown, fields: LogFields = {}): void {
  write('error', event, { ...fields, error: describeError(error) });
}

/** What a log may say of a thrown value: its class name, never its message (which may quote request data). */
export const errorName = (error: unknown): string => (error instanceof Error ? error.name : 'unknown');

type ErrorDescription = { name: string; code?: string; frames: string[]; cause?: ErrorDescription };

/** A V8 stack frame: `at fn (file:line:col)`, `at file:line:col`, `at fn (native)`, `at async Promise.all (index 0)`. */
const FRAME = /^at (?:.+ \((?:.+:\d+:\d+|native|<anonymous>|index \d+)\)|.+:\d+:\d+)$/;
/** A code as libraries set them (`ECONNREFUSED`, `ERR_INVALID_URL`, `EENVELOPE`), nothing longer. */
const CODE = /^[\w.-]{1,64}$/;

/** Name, string code and the stack's frames (code locations only), with the cause's, two deep. */
function describeError(error: unknown, depth = 0): ErrorDescription {
  if (!(error instanceof Error)) return { name: typeof error, frames: [] };
  const { code } = error as { code?: unknown };
  const stack = error.stack ?? '';
  // The stack opens with the message, which may span lines: the frames are what follows it.
  const at = error.message === '' ? -1 : stack.indexOf(error.message);
  const frames = (at === -1 ? stack : stack.slice(at + error.message.length))
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => FRAME.test(line));
  return {
    name: error.name,
    ...(typeof code === 'string' && CODE.test(code) && { code }),
    frames,
    ...(error.cause !== undefined && depth < 2 && { cause: describeError(error.cause, depth + 1) }),
  };
}
