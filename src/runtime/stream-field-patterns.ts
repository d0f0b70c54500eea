import type { ProtocolAdapter } from '../protocols/types.ts';

/** JSON's whitespace between a field name, its colon and its value (what json-usage.ts skips). */
const SPACES = '[ \\t\\n\\r]*';

/** The usage patterns, made once per adapter. */
const usagePatterns = new WeakMap<ProtocolAdapter, RegExp>();

/**
 * The adapter's usage objects as one global pattern: a quoted usage field name, a colon and an opening brace
 * (JSON whitespace between), as `findUsageObject` finds them. Searched in a read's bytes decoded as latin1 (one
 * character per byte: indexes are byte offsets, and no byte above 0x7f matches), so a whole read is scanned in
 * one native search instead of one Buffer#indexOf call per `"usage":null` of every event. Global: set
 * `lastIndex` before each `exec`.
 */
export function getUsagePattern(adapter: ProtocolAdapter): RegExp {
  let pattern = usagePatterns.get(adapter);
  if (!pattern) {
    const names = adapter.usageFields.map((name) => name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|');
    usagePatterns.set(adapter, (pattern = new RegExp(`"(?:${names})"${SPACES}:${SPACES}\\{`, 'g')));
  }
  return pattern;
}

/** An `"error"` key or value that is not `"error": null` (`hasErrorField`'s rule), as a pattern. */
const ERROR_PATTERN = new RegExp(`"error"(?!${SPACES}:${SPACES}null)`);

/**
 * True when `text` (bytes decoded as latin1) holds an error field: the same answer as `hasErrorField` of
 * those bytes, in one search.
 */
export function hasErrorText(text: string): boolean {
  return ERROR_PATTERN.test(text);
}
