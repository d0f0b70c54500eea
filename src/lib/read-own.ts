/**
 * `table[key]` when `key` is the table's own entry, else undefined. For a lookup by a client's or a vendor's
 * string: a plain object literal also answers `constructor`, `toString` or `__proto__` from Object.prototype
 * (a function or an object where a string or a number was expected).
 */
export function readOwn<V>(table: Readonly<Record<string, V>>, key: string): V | undefined {
  return Object.hasOwn(table, key) ? table[key] : undefined;
}
