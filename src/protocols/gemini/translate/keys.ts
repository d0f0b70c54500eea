/** Field-name handling of the generate-content protocol, which accepts both camelCase and snake_case. */

const SNAKE_LETTER = /_([a-z])/g;

/**
 * A shallow copy of `value` with snake_case keys turned to camelCase (the protocol's JSON mapping
 * accepts both). Only one level: free-form objects (function arguments, schemas) are never touched.
 */
export function readCamelKeys(value: Record<string, any>): Record<string, any> {
  let out: Record<string, any> | undefined;
  for (const key of Object.keys(value)) {
    if (!key.includes('_')) continue;
    out ??= { ...value };
    delete out[key];
    out[key.replace(SNAKE_LETTER, (_match, letter: string) => letter.toUpperCase())] = value[key];
  }
  return out ?? value;
}
