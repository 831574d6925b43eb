/** One JSON line per event, at its level. Fields are ids, kinds, codes and variable names: no personal data. */
export type LogFields = Record<string, string | number | boolean | undefined>;

/** `info`: normal work worth a line; `warn`: a failure retried by itself; `error`: a person should look. */
const EVENT_LEVELS = {
  scheduled_run: 'info',
  notice_in_digest: 'info',
  confirmation_email_limited: 'info',
  consent_confirmed: 'info',
  consent_denied: 'info',
  consent_link_refused: 'info',
  consent_hold_expired: 'info',
  consent_hold_released: 'info',
  step_retry: 'warn',
  claim_lost: 'warn',
  store_unavailable: 'warn',
  address_count_failed: 'warn',
  mail_deferred: 'warn',
  chat_deferred: 'warn',
  retention_kept_owed_request: 'warn',
  step_given_up: 'error',
  step_failed: 'error',
  crm_misconfigured: 'error',
  crm_not_accepted_here: 'error',
  record_unreadable: 'error',
  config_missing: 'error',
  config_invalid: 'error',
  mail_failed: 'error',
  chat_failed: 'error',
  scheduled_run_error: 'error',
  unexpected_error: 'error',
  mcp_error: 'error',
} as const satisfies Record<string, 'info' | 'warn' | 'error'>;

export type LogEvent = keyof typeof EVENT_LEVELS;

const write = (level: 'info' | 'warn' | 'error', event: string, fields: object) =>
  console[level](JSON.stringify({ source: 'proposal-submit', level, event, ...fields }));

export const logEvent = (event: LogEvent, fields: LogFields = {}) => write(EVENT_LEVELS[event], event, fields);

/** What a log may say of a thrown value: its class name, never its message (which may quote request data). */
export const errorName = (error: unknown): string => (error instanceof Error ? error.name : 'unknown');

/** A V8 stack frame: `at fn (file:line:col)`, `at file:line:col`, `at fn (native)`, `at async Promise.all (index 0)`. */
const FRAME = /^at (?:.+ \((?:.+:\d+:\d+|native|<anonymous>|index \d+)\)|.+:\d+:\d+)$/;

type ErrorDescription = { name: string; code?: string; frames: string[]; cause?: ErrorDescription };

/** An error nobody expected, at level error: its class, `code` and stack frames (and its cause's), never its message. */
export const logError = (event: LogEvent, error: unknown, fields: LogFields = {}) =>
  write('error', event, { ...fields, error: describe(error) });

function describe(error: unknown, depth = 0): ErrorDescription {
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
    ...(typeof code === 'string' && /^[\w.-]{1,64}$/.test(code) && { code }),
    frames,
    ...(error.cause !== undefined && depth < 2 && { cause: describe(error.cause, depth + 1) }),
  };
}
