/** The function's log lines: each event at its level, and unexpected errors with their frames but none of their words. */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { logError, logEvent } from '../../src/proposal/log.ts';
import { captureLogLines, type LogLine } from '../helpers/log-lines.ts';

let lines: LogLine[];

beforeEach(() => {
  lines = captureLogLines();
});
afterEach(() => {
  vi.restoreAllMocks();
});

describe('logEvent', () => {
  it.each([
    ['scheduled_run', 'info'],
    ['step_retry', 'warn'],
    ['mail_deferred', 'warn'],
    ['step_given_up', 'error'],
    ['config_invalid', 'error'],
  ] as const)('writes %s at level %s, by the console method of that level', (event, level) => {
    logEvent(event, { request_id: 'r-1' });
    expect(lines.map(({ level, entry }) => ({ level, entry }))).toEqual([
      { level, entry: { source: 'proposal-submit', level, event, request_id: 'r-1' } },
    ]);
  });
});

describe('logError', () => {
  /** Thrown from a named function, so a frame names it. */
  function parseSenderText(): never {
    const error = new Error(
      'Unexpected token in "ann@example.com wrote: Launch in the EU"\n    at (looks like a frame)',
    );
    Object.assign(error, { code: 'E_PARSE' });
    throw new TypeError('could not read ann@example.com', { cause: error });
  }

  it('logs an unexpected error at level error with its class, code and stack frames, never its message', () => {
    let thrown: unknown;
    try {
      parseSenderText();
    } catch (error) {
      thrown = error;
    }
    logError('unexpected_error', thrown, { channel: 'mcp' });

    expect(lines).toHaveLength(1);
    const [{ level, entry }] = lines as [LogLine];
    expect(level).toBe('error');
    expect(entry).toMatchObject({ level: 'error', event: 'unexpected_error', channel: 'mcp' });
    const error = entry['error'] as {
      name: string;
      frames: string[];
      cause: { name: string; code: string; frames: string[] };
    };
    expect(error.name).toBe('TypeError');
    expect(error.frames[0]).toMatch(/^at parseSenderText \(.*submit-log\.test\.ts:\d+:\d+\)$/);
    expect(error.cause).toMatchObject({ name: 'Error', code: 'E_PARSE' });
    expect(error.cause.frames[0]).toMatch(/parseSenderText/);
    const text = JSON.stringify(entry);
    for (const words of ['ann@example.com', 'Launch in the EU', 'looks like a frame', 'could not read']) {
      expect(text).not.toContain(words);
    }
  });

  it('keeps a code only when it looks like one, and the frames of an async caller', async () => {
    const rejects = async () => {
      await Promise.resolve();
      throw Object.assign(new Error('x'), { code: 'bounced for ann@example.com' });
    };
    const thrown = await Promise.all([rejects()]).catch((error: unknown) => error);
    logError('unexpected_error', thrown);
    const error = lines[0]?.entry['error'] as { code?: string; frames: string[] };
    expect(error.code).toBeUndefined();
    expect(error.frames.some((frame) => frame.startsWith('at async Promise.all (index 0)'))).toBe(true);
    expect(lines[0]?.text).not.toContain('ann@example.com');
  });

  it('says only the type of a thrown value that is no Error', () => {
    logError('scheduled_run_error', 'secret text from a request');
    expect(lines[0]?.entry).toEqual({
      source: 'proposal-submit',
      level: 'error',
      event: 'scheduled_run_error',
      error: { name: 'string', frames: [] },
    });
  });
});
