/**
 * `target[name] = value` as an own, enumerable entry whatever the name. Assigning `__proto__` (a client's
 * property name, a key of a config) would set the object's prototype instead, and the entry would vanish
 * from the object sent on or written out.
 */
export function setOwn(target: Record<string, unknown>, name: string, value: unknown): void {
  if (name === '__proto__') Object.defineProperty(target, name, { value, enumerable: true, writable: true, configurable: true });
  else target[name] = value;
}
