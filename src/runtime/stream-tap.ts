import type { ProtocolAdapter } from '../protocols/types.ts';
import type { Usage } from './types.ts';

const NEWLINE = 0x0a;
const SPACE = 0x20;
const COLON = 0x3a;
const OPEN = 0x7b;

/** The `"field"` byte strings of an adapter's usage fields, made once per adapter. */
const fieldCache = new WeakMap<ProtocolAdapter, Buffer[]>();

function getFields(adapter: ProtocolAdapter): Buffer[] {
  let fields = fieldCache.get(adapter);
  if (!fields) fieldCache.set(adapter, (fields = adapter.usageFields.map((name) => Buffer.from(`"${name}"`))));
  return fields;
}

/** True when `bytes` hold a usage object (`"usage": {`), not a `null` usage that some streams repeat on every event. */
function hasUsageObject(bytes: Buffer, fields: Buffer[]): boolean {
  for (const field of fields) {
    let at = bytes.indexOf(field);
    while (at !== -1) {
      let i = at + field.length;
      while (bytes[i] === SPACE) i++;
      if (bytes[i] === COLON) {
        i++;
        while (bytes[i] === SPACE) i++;
        if (bytes[i] === OPEN) return true;
      }
      at = bytes.indexOf(field, at + field.length);
    }
  }
  return false;
}

/**
 * Watches an SSE stream on its way to the client, byte for byte: reads token usage from the events that
 * carry a usage object and, when `dropUsageEvents`, removes the usage-only events the gateway asked for
 * on the client's behalf. Bytes pass through as they come; only a trailing partial line waits for its end.
 * Events are parsed only when they hold a usage object (once or twice per stream).
 */
export class StreamTap {
  private tail: Buffer | undefined;
  private skipBlank = false;
  private readonly fields: Buffer[];

  constructor(
    private readonly adapter: ProtocolAdapter,
    private readonly usage: Usage,
    private readonly dropUsageEvents: boolean,
  ) {
    this.fields = getFields(adapter);
  }

  /** Takes a chunk from the vendor; returns the bytes to send now. */
  push(chunk: Buffer): Buffer {
    const bytes = this.tail ? Buffer.concat([this.tail, chunk]) : chunk;
    const lastBreak = bytes.lastIndexOf(NEWLINE);
    if (lastBreak === -1) {
      this.tail = bytes;
      return EMPTY;
    }
    this.tail = lastBreak === bytes.length - 1 ? undefined : bytes.subarray(lastBreak + 1);
    const complete = this.tail ? bytes.subarray(0, lastBreak + 1) : bytes;
    if (!hasUsageObject(complete, this.fields) && !this.skipBlank) return complete;
    return this.readLines(complete);
  }

  /** The stream ended: the bytes still held. */
  end(): Buffer {
    const rest = this.tail ?? EMPTY;
    this.tail = undefined;
    return rest.length && hasUsageObject(rest, this.fields) ? this.readLines(rest) : rest;
  }

  private readLines(bytes: Buffer): Buffer {
    const lines = bytes.toString('utf8').split('\n');
    const rest = lines.pop()!;
    const kept: string[] = [];
    for (const line of lines) {
      const bare = line.endsWith('\r') ? line.slice(0, -1) : line;
      if (this.skipBlank && bare === '') {
        this.skipBlank = false;
        continue;
      }
      this.skipBlank = false;
      if (bare.startsWith('data:') && hasUsageObject(Buffer.from(bare), this.fields) && this.readEvent(bare.slice(5))) {
        this.skipBlank = true;
        continue;
      }
      kept.push(line + '\n');
    }
    return Buffer.from(kept.join('') + rest);
  }

  /** Reads one event's usage; true when the event is to be dropped. */
  private readEvent(data: string): boolean {
    let json: unknown;
    try {
      json = JSON.parse(data);
    } catch {
      return false;
    }
    const usage = this.adapter.readUsage(json);
    if (usage) {
      for (const [name, value] of Object.entries(usage) as [keyof Usage, number | undefined][]) {
        if (value !== undefined) this.usage[name] = value;
      }
    }
    return this.dropUsageEvents && this.adapter.isUsageOnlyEvent?.(json) === true;
  }
}

const EMPTY = Buffer.alloc(0);
