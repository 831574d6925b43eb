/** Turns a raw body into the plain object the validators check: JSON, or the workspace's form post. */

export type MediaType = 'json' | 'form';

export function mediaTypeOf(contentType: string | null): MediaType | null {
  const essence = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  if (essence === 'application/json' || /^application\/[\w.+-]+\+json$/.test(essence)) return 'json';
  if (essence === 'application/x-www-form-urlencoded') return 'form';
  return null;
}

export type Parsed =
  | { ok: true; body: Record<string, unknown>; formKey?: string }
  | { ok: false; kind: 'malformed-json' | 'not-an-object' };

/** Form posts carry strings; these fields become the JSON types the contract expects. */
function coerceForm(params: URLSearchParams): { body: Record<string, unknown>; formKey?: string } {
  // Object.create(null): keys such as "__proto__" stay plain data and the schema rejects them.
  const body = Object.create(null) as Record<string, unknown>;
  let formKey: string | undefined;
  for (const [name, raw] of params) {
    const value = raw.trim();
    if (name === 'idempotency_key') {
      formKey = value || undefined;
      continue;
    }
    if (value === '' && name !== 'website') continue;
    if (name === 'consent') body[name] = ['on', 'true', 'yes', '1'].includes(value.toLowerCase()) ? true : value;
    else if (name === 'form_started_at' && /^\d{1,16}$/.test(value)) body[name] = Number(value);
    else body[name] = value;
  }
  if (body.website === '') delete body.website;
  return { body, ...(formKey ? { formKey } : {}) };
}

export function parseBody(text: string, media: MediaType): Parsed {
  if (media === 'form') return { ok: true, ...coerceForm(new URLSearchParams(text)) };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, kind: 'malformed-json' };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { ok: false, kind: 'not-an-object' };
  return { ok: true, body: value as Record<string, unknown> };
}
