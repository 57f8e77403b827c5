/** A plain JSON object: not null, not an array (what a request body or a stored document must be). */
export function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
