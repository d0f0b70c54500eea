import type { ProtocolAdapter } from '../protocols/types.ts';
import { readUsageFromJson } from './json-usage.ts';
import type { Usage } from './types.ts';

/** How a usage object (not a `null` usage, which some streams repeat on every event) looks in a protocol. */
interface UsageMarks {
  text: string[];
  bytes: Buffer[];
}
const marksCache = new WeakMap<ProtocolAdapter, UsageMarks>();

function getMarks(adapter: ProtocolAdapter): UsageMarks {
  let marks = marksCache.get(adapter);
  if (!marks) {
    const text = adapter.usageFields.flatMap((name) => [`"${name}":{`, `"${name}": {`]);
    marksCache.set(adapter, (marks = { text, bytes: text.map((mark) => Buffer.from(mark)) }));
  }
  return marks;
}
const MAX_JSON_BYTES = 4 * 1024 * 1024;

function mergeUsage(into: Usage, next: Usage | undefined): void {
  if (!next) return;
  for (const [name, value] of Object.entries(next) as [keyof Usage, number | undefined][]) {
    if (value !== undefined) into[name] = value;
  }
}

/**
 * Reads token usage from response bytes as they stream past, without holding the stream: SSE lines
 * are parsed only when they mention usage; a JSON body is parsed once at its end.
 */
export class UsageSniffer {
  private readonly chunks: Buffer[] = [];
  private size = 0;
  private tail = '';
  private readonly marks: UsageMarks;

  constructor(
    private readonly adapter: ProtocolAdapter,
    private readonly usage: Usage,
    private readonly sse: boolean,
  ) {
    this.marks = getMarks(adapter);
  }

  /** Looks at one chunk of the response body. */
  push(chunk: Buffer): void {
    if (!this.sse) {
      this.size += chunk.length;
      if (this.size <= MAX_JSON_BYTES) this.chunks.push(chunk);
      return;
    }
    if (!this.tail && !this.marks.bytes.some((mark) => chunk.indexOf(mark) !== -1)) {
      const lastBreak = chunk.lastIndexOf(10);
      if (lastBreak !== chunk.length - 1) this.tail = chunk.toString('utf8', lastBreak + 1);
      return;
    }
    const text = this.tail + chunk.toString('utf8');
    const lastBreak = text.lastIndexOf('\n');
    this.tail = text.slice(lastBreak + 1);
    if (this.tail.length > MAX_JSON_BYTES) this.tail = '';
    for (const line of text.slice(0, lastBreak + 1).split('\n')) {
      if (line.startsWith('data:') && this.mentionsUsage(line)) this.readJson(line.slice(5));
    }
  }

  /** Finishes after the last chunk. */
  end(): void {
    if (this.sse) {
      if (this.tail.startsWith('data:') && this.mentionsUsage(this.tail)) this.readJson(this.tail.slice(5));
      return;
    }
    if (this.size > MAX_JSON_BYTES || this.size === 0) return;
    const body = this.chunks.length === 1 ? this.chunks[0] : Buffer.concat(this.chunks);
    mergeUsage(this.usage, readUsageFromJson(body, this.adapter));
  }

  private mentionsUsage(line: string): boolean {
    return this.marks.text.some((mark) => line.includes(mark));
  }

  private readJson(text: string): void {
    try {
      mergeUsage(this.usage, this.adapter.readUsage(JSON.parse(text)));
    } catch {
      // not JSON: nothing to count
    }
  }
}
