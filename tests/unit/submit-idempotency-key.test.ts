/** The Idempotency-Key header per the IETF draft: quoted or bare, 1-255 printable ASCII. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseIdempotencyKey } from '../../src/proposal/submit/key.ts';

function problemType(header: string | null): string | undefined {
  const result = parseIdempotencyKey(header);
  // `type` is "#problem-<id>" here; the handler resolves it against the agents page.
  return result.ok ? undefined : /#(?:problem-)?([a-z-]+)$/.exec((result.reply.body as { type: string }).type)?.[1];
}

describe('parseIdempotencyKey', () => {
  it('accepts a bare key', () => {
    expect(parseIdempotencyKey('8e03978e-40d5-43e8-bc93-6894a57f9324')).toEqual({
      ok: true,
      key: '8e03978e-40d5-43e8-bc93-6894a57f9324',
    });
  });

  it('accepts a quoted key (Structured Field string) and means the same key as bare', () => {
    expect(parseIdempotencyKey('"8e03978e-40d5"')).toEqual({ ok: true, key: '8e03978e-40d5' });
  });

  it('accepts 255 characters and rejects 256', () => {
    expect(parseIdempotencyKey('a'.repeat(255))).toEqual({ ok: true, key: 'a'.repeat(255) });
    expect(parseIdempotencyKey(`"${'a'.repeat(255)}"`).ok).toBe(true);
    expect(problemType('a'.repeat(256))).toBe('invalid-idempotency-key');
    expect(problemType(`"${'a'.repeat(256)}"`)).toBe('invalid-idempotency-key');
  });

  it('answers 400 missing-idempotency-key without a header', () => {
    const result = parseIdempotencyKey(null);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.reply.status).toBe(400);
    expect(problemType(null)).toBe('missing-idempotency-key');
  });

  it.each([
    ['empty', ''],
    ['empty quoted', '""'],
    ['only spaces', '   '],
    ['inner space', 'a b'],
    ['tab', 'a\tb'],
    ['newline', 'a\nb'],
    ['NUL', 'a\u0000b'],
    ['DEL', 'a\u007fb'],
    ['non-ASCII', 'clé-1'],
    ['emoji', 'key-🙂'],
    ['unterminated quote', '"abc'],
    ['lone quote', '"'],
    ['inner quote', '"a"b"'],
    ['bare with quote', 'a"b'],
  ])('rejects %s with 400 invalid-idempotency-key', (_name, header) => {
    const result = parseIdempotencyKey(header);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.reply.status).toBe(400);
    expect(problemType(header)).toBe('invalid-idempotency-key');
  });

  it('never echoes the value and only ever accepts 1-255 printable characters', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 300 }), (header) => {
        const result = parseIdempotencyKey(header);
        if (result.ok) {
          expect(result.key).toMatch(/^[\x21-\x7e]{1,255}$/);
          expect(result.key).not.toContain('"');
        } else {
          expect(result.reply.status).toBe(400);
          if (header.trim().length >= 4)
            expect(JSON.stringify(result.reply.body)).not.toContain(JSON.stringify(header).slice(1, -1));
        }
      }),
    );
  });
});
