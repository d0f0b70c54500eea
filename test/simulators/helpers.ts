import { readFileSync } from 'node:fs';
import { VENDOR_FIXTURES } from '../helpers/vendor-fixtures.ts';

const FIXTURES = VENDOR_FIXTURES;

/** Reads a JSON fixture, e.g. `openai/chat-response.json`. */
export function readFixture(name: string): any {
  return JSON.parse(readFileSync(`${FIXTURES}/${name}`, 'utf8'));
}

/** Reads an SSE fixture into its events. */
export function readSseFixture(name: string): SseEvent[] {
  return parseSse(readFileSync(`${FIXTURES}/${name}`, 'utf8'));
}

/** One SSE event: its `event:` name (if any) and raw `data:`. */
export interface SseEvent {
  event?: string;
  data: string;
}

/** Splits an SSE body (LF or CRLF framed) into events. */
export function parseSse(text: string): SseEvent[] {
  const events: SseEvent[] = [];
  for (const block of text.split(/\r?\n\r?\n/)) {
    if (block.trim() === '') continue;
    const event: SseEvent = { data: '' };
    for (const line of block.split(/\r?\n/)) {
      if (line.startsWith('event: ')) event.event = line.slice(7);
      else if (line.startsWith('data: ')) event.data = line.slice(6);
    }
    events.push(event);
  }
  return events;
}

/**
 * The key structure of a JSON value: objects become their keys (sorted) mapped to the structure of each
 * value, arrays the structure of their first element, scalars their type. Ids and texts drop out.
 */
export function shapeOf(value: unknown): unknown {
  if (value === null) return 'null';
  if (Array.isArray(value)) return value.length === 0 ? [] : [shapeOf(value[0])];
  if (typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value as object).sort()) out[key] = shapeOf((value as Record<string, unknown>)[key]);
    return out;
  }
  return typeof value;
}

/** Drops consecutive repeats (`a a b b b c` -> `a b c`), to compare event orders of different lengths. */
export function collapseRuns<T>(items: T[]): T[] {
  return items.filter((item, i) => i === 0 || item !== items[i - 1]);
}
