/** A static JSON document for an endpoint route: stable formatting, explicit media type. */
export function jsonResponse(value: unknown, contentType = 'application/json; charset=utf-8'): Response {
  return new Response(`${JSON.stringify(value, null, 2)}\n`, { headers: { 'Content-Type': contentType } });
}
