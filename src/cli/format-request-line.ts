import { formatJsonNumber } from '../lib/format-json-number.ts';
import type { UsageEvent } from '../runtime/types.ts';

/** The fields that name who asked for what (the same request after request), serialized together and kept. */
type Caller = Pick<UsageEvent, 'key' | 'model' | 'vendor' | 'target' | 'op' | 'style' | 'method' | 'path' | 'route' | 'client' | 'pid'>;

/**
 * Makes the writer of the request log line: `{"level":30,"time":T,<the event's fields>,"msg":"request"}` and a
 * newline, byte for byte what `JSON.stringify` of the event in pino's line shape gives (the event's fields in
 * the order createUsageEvent of src/runtime/usage-event.ts sets them; test/cli/format-request-line.test.ts
 * proves it on arbitrary events). The caller's fields (key, model, vendor, target, op, style, method, path,
 * route, client, pid) are serialized once and reused while the next event has the same values, as nearly every
 * event does; the outcome's fields (status to the error) are written one by one, numbers and the usage's
 * counts by hand, with no object built for them.
 */
export function createRequestLineFormatter(): (event: UsageEvent, time: number) => string {
  let caller: Caller | undefined;
  let callerJson = '';
  // The time is the same millisecond for many lines in a row: written once per millisecond.
  let lastTime = Number.NaN;
  let timeText = '';
  return (event, time) => {
    if (time !== lastTime) {
      lastTime = time;
      timeText = formatJsonNumber(time);
    }
    if (caller === undefined || !isSameCaller(caller, event)) {
      caller = readCaller(event);
      callerJson = readFields(JSON.stringify(caller));
    }
    const { requestId } = event;
    const id = typeof requestId === 'string' ? `,"requestId":${quoteJsonString(requestId)}` : writeField(',"requestId":', requestId);
    return (
      `{"level":30,"time":${timeText}${id}${callerJson}` +
      writeField(',"status":', event.status) +
      writeField(',"ttfbMs":', event.ttfbMs) +
      writeField(',"durationMs":', event.durationMs) +
      writeField(',"overheadMs":', event.overheadMs) +
      writeField(',"vendorCalls":', event.vendorCalls) +
      writeField(',"attempts":', event.attempts) +
      writeUsage(event.usage) +
      writeField(',"generation":', event.generation) +
      writeField(',"costUsd":', event.costUsd) +
      writeField(',"native":', event.native) +
      writeField(',"failedTargets":', event.failedTargets) +
      writeField(',"coolingTargets":', event.coolingTargets) +
      writeField(',"finishReasons":', event.finishReasons) +
      writeField(',"error":', event.error) +
      writeField(',"cause":', event.cause) +
      ',"msg":"request"}\n'
    );
  };
}

/**
 * A string as `JSON.stringify` writes it: quoted as it is when every character is printable ASCII other than
 * `"` and backslash (a request id, a UUID the gateway made), else by `JSON.stringify` (a call into V8's runtime).
 */
function quoteJsonString(text: string): string {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x20 || code > 0x7e || code === 0x22 || code === 0x5c) return JSON.stringify(text);
  }
  return `"${text}"`;
}

/** The members of a serialized object with a comma before them (`{"a":1}` gives `,"a":1`), or '' for `{}`. */
function readFields(json: string): string {
  return json.length > 2 ? `,${json.slice(1, -1)}` : '';
}

/**
 * One member as `JSON.stringify` writes it inside an object (`prefix`: `,"name":`): a number by hand (its
 * shortest form, `null` when not finite, as JSON writes it), nothing for what JSON leaves out (undefined,
 * functions, symbols), anything else by `JSON.stringify`.
 */
function writeField(prefix: string, value: unknown): string {
  if (typeof value === 'number') return prefix + formatJsonNumber(value);
  if (value === undefined) return '';
  const json = JSON.stringify(value);
  return json === undefined ? '' : prefix + json;
}

/** `"name":` of the usage field names met so far (the few Usage fields), each escaped once. */
const usagePrefixes = new Map<string, string>();
const MAX_USAGE_PREFIXES = 32;

/**
 * The usage member: a plain object of counts (numbers, booleans) by hand, member by member in its own order
 * as `JSON.stringify` writes them; anything else (another value, a nested object) by {@link writeField}.
 */
function writeUsage(usage: unknown): string {
  if (usage === null || typeof usage !== 'object' || Object.getPrototypeOf(usage) !== Object.prototype) return writeField(',"usage":', usage);
  let members = '';
  for (const name in usage) {
    const value = (usage as Record<string, unknown>)[name];
    if (value === undefined) continue;
    const type = typeof value;
    if (type !== 'number' && type !== 'boolean') return writeField(',"usage":', usage);
    let prefix = usagePrefixes.get(name);
    if (prefix === undefined) {
      prefix = `${JSON.stringify(name)}:`;
      if (usagePrefixes.size < MAX_USAGE_PREFIXES) usagePrefixes.set(name, prefix);
    }
    // The comma before every member but the first: no slice of the joined members (which flattens them).
    members += (members === '' ? prefix : `,${prefix}`) + (type === 'number' ? formatJsonNumber(value as number) : String(value));
  }
  return `,"usage":{${members}}`;
}

function readCaller(event: UsageEvent): Caller {
  const { key, model, vendor, target, op, style, method, path, route, client, pid } = event;
  return { key, model, vendor, target, op, style, method, path, route, client, pid };
}

function isSameCaller(caller: Caller, event: UsageEvent): boolean {
  return (
    caller.path === event.path &&
    caller.model === event.model &&
    caller.key === event.key &&
    caller.target === event.target &&
    caller.client === event.client &&
    caller.vendor === event.vendor &&
    caller.op === event.op &&
    caller.style === event.style &&
    caller.method === event.method &&
    caller.route === event.route &&
    caller.pid === event.pid
  );
}
