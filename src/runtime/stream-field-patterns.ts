import type { ProtocolAdapter } from '../protocols/types.ts';

/** JSON's whitespace between a field name, its colon and its value (what json-usage.ts skips). */
const SPACES = '[ \\t\\n\\r]*';

/** A usage object's pattern after its opening quote: a usage field's name, its closing quote, a colon and a brace. */
function defineUsageSource(adapter: ProtocolAdapter): string {
  const names = adapter.usageFields.map((name) => name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|');
  return `(?:${names})"${SPACES}:${SPACES}\\{`;
}

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
    usagePatterns.set(adapter, (pattern = new RegExp(`"${defineUsageSource(adapter)}`, 'g')));
  }
  return pattern;
}

/** An `"error"` key or value that is not `"error": null` (`hasErrorField`'s rule), after its opening quote. */
const ERROR_SOURCE = `error"(?!${SPACES}:${SPACES}null)`;

/** The usage-or-error patterns, made once per adapter. */
const usageOrErrorPatterns = new WeakMap<ProtocolAdapter, RegExp>();

/**
 * The adapter's usage objects (as {@link getUsagePattern} finds them) and error fields (an `"error"` key or
 * value that is not `"error": null`, `hasErrorField`'s rule) as one global pattern: a read's text is searched
 * once for both, instead of once for each (each search walks the text character by character). A match that
 * ends in `{` is a usage object ({@link isUsageMatch}), any other an error field. A usage match holds no
 * quote but its name's two, so no error field starts inside one; an error field may hide a usage object that
 * starts at its closing quote (`"error"usage":{`, no JSON), so search on from the character after its start.
 */
export function getUsageOrErrorPattern(adapter: ProtocolAdapter): RegExp {
  let pattern = usageOrErrorPatterns.get(adapter);
  if (!pattern) {
    usageOrErrorPatterns.set(adapter, (pattern = new RegExp(`"(?:${defineUsageSource(adapter)}|${ERROR_SOURCE})`, 'g')));
  }
  return pattern;
}

const OPEN_BRACE = 0x7b;

/** Whether the match a pattern of {@link getUsageOrErrorPattern} just made in `text` is a usage object (not an error field). */
export function isUsageMatch(text: string, pattern: RegExp): boolean {
  return text.charCodeAt(pattern.lastIndex - 1) === OPEN_BRACE;
}
