/** An endpoint route's answer with an explicit media type (the dev server sends it as is). */
export const textResponse = (body: string, type = 'text/plain') =>
  new Response(body, { headers: { 'Content-Type': `${type}; charset=utf-8` } });

/** A static JSON document, in stable formatting. */
export const jsonResponse = (value: unknown) => textResponse(`${JSON.stringify(value, null, 2)}\n`, 'application/json');
