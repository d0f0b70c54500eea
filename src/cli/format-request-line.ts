import { formatJsonNumber } from '../lib/format-json-number.ts';
import type { UsageEvent } from '../runtime/types.ts';

/** The fields that name who asked for what (the same request after request), serialized together and kept. */
type Caller = Pick<UsageEvent, 'key' | 'model' | 'vendor' | 'target' | 'op' | 'style' | 'method' | 'path' | 'route' | 'client' | 'pid'>;

/**
 * Makes the writer of the request log line: `{"level":30,"time":T,<the event's fields>,"msg":"request"}` and a
 * newline, byte for byte what `JSON.stringify` of the event in pino's line shape gives (the event's fields in
 * the order createUsageEvent of src/runtime/usage-event.ts sets them; test/cli/format-request-line.test.ts
 * proves it on arbitrary events). What repeats from line to line is written once and kept while it stays the
 * same: the time (per millisecond), the caller's fields (key, model, vendor, target, op, style, method, path,
 * route, client, pid), the status, the call counts and the generation, each joined with the names around it.
 * A line is then a dozen pieces or so (each piece one more node for the redactor to flatten), the durations
 * and the usage's counts written by hand, with no object built for them.
 */
export function createRequestLineFormatter(): (event: UsageEvent, time: number) => string {
  let caller: Caller | undefined;
  let callerJson = '';
  /** `"` and the caller's fields: what follows a request id written as it is. */
  let closedCallerJson = '';
  // The time is the same millisecond for many lines in a row: written once per millisecond.
  let lastTime = Number.NaN;
  let timeText = '';
  /** `{"level":30,"time":T,"requestId":"`: the head of a line whose id is written as it is. */
  let openHead = '';
  const status = defineKeptPart((value: unknown) => writeField(',"status":', value));
  const vendorCalls = defineKeptPart((value: unknown) => writeField(',"vendorCalls":', value));
  const attempts = defineKeptPart((value: unknown) => writeField(',"attempts":', value));
  const end = defineKeptPart((generation: unknown) => `${writeField(',"generation":', generation)},"msg":"request"}\n`);
  return (event, time) => {
    if (time !== lastTime) {
      lastTime = time;
      timeText = formatJsonNumber(time);
      openHead = `{"level":30,"time":${timeText},"requestId":"`;
    }
    if (caller === undefined || !isSameCaller(caller, event)) {
      caller = readCaller(event);
      callerJson = readFields(JSON.stringify(caller));
      closedCallerJson = `"${callerJson}`;
    }
    const { requestId } = event;
    const head = typeof requestId === 'string' && isPlainText(requestId) ? openHead + requestId + closedCallerJson : `{"level":30,"time":${timeText}${writeField(',"requestId":', requestId)}${callerJson}`;
    const outcome =
      status.get(event.status) +
      writeField(',"ttfbMs":', event.ttfbMs) +
      writeField(',"durationMs":', event.durationMs) +
      writeField(',"overheadMs":', event.overheadMs) +
      vendorCalls.get(event.vendorCalls) +
      attempts.get(event.attempts) +
      writeUsage(event.usage);
    if (hasNoExtraFields(event)) return head + outcome + end.get(event.generation);
    return (
      head +
      outcome +
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

/** True when the event has none of the fields after the generation (a served request's line). */
function hasNoExtraFields(event: UsageEvent): boolean {
  return (
    event.costUsd === undefined &&
    event.native === undefined &&
    event.failedTargets === undefined &&
    event.coolingTargets === undefined &&
    event.finishReasons === undefined &&
    event.error === undefined &&
    event.cause === undefined
  );
}

/** The text `write` gives for a number, kept while the next value is the same number (`Object.is`: -0 and NaN apart); any other value written each time. */
function defineKeptPart(write: (value: unknown) => string): { get(value: unknown): string } {
  let last: unknown;
  let text: string | undefined;
  return {
    get(value) {
      if (typeof value !== 'number') return write(value);
      if (text === undefined || !Object.is(value, last)) {
        last = value;
        text = write(value);
      }
      return text;
    },
  };
}

/** True when every character is printable ASCII other than `"` and backslash: `JSON.stringify` writes such a string as it is, quoted. */
function isPlainText(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x20 || code > 0x7e || code === 0x22 || code === 0x5c) return false;
  }
  return true;
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

/** How many members of a usage object have their name's prefix kept (by position). */
const MAX_USAGE_PREFIXES = 32;
/** The name of the usage member last written at each position, and its prefix there (`"name":`, after a comma but first). */
const usageNames: string[] = [];
const usagePrefixes: string[] = [];

/**
 * The usage member: a plain object of counts (numbers, booleans) by hand, member by member in its own order
 * as `JSON.stringify` writes them; anything else (another value, a nested object) by {@link writeField}.
 */
function writeUsage(usage: unknown): string {
  if (usage === null || typeof usage !== 'object' || Object.getPrototypeOf(usage) !== Object.prototype) return writeField(',"usage":', usage);
  let members = '';
  let at = 0;
  for (const name in usage) {
    const value = (usage as Record<string, unknown>)[name];
    if (value === undefined) continue;
    const type = typeof value;
    if (type !== 'number' && type !== 'boolean') return writeField(',"usage":', usage);
    // The comma before every member but the first is part of its prefix: no slice of the joined members (which flattens them).
    let prefix = usageNames[at] === name ? usagePrefixes[at] : undefined;
    if (prefix === undefined) {
      prefix = `${at === 0 ? '' : ','}${JSON.stringify(name)}:`;
      if (at < MAX_USAGE_PREFIXES) {
        usageNames[at] = name;
        usagePrefixes[at] = prefix;
      }
    }
    members += prefix + (type === 'number' ? formatJsonNumber(value as number) : String(value));
    at++;
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
