/**
 * Any parsed JSON value as text, never throwing: a string as it is, null and undefined as '', anything else
 * as its JSON (5 as '5', an object as its JSON text). For a client's or a vendor's value where text is
 * needed: `String(value)` and a template literal throw on an object whose `toString` is null, and JSON.parse
 * makes such objects from `{"toString": null}`.
 */
export function toText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === null || value === undefined) return '';
  return JSON.stringify(value) ?? '';
}
