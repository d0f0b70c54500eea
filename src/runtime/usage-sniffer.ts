import type { ProtocolAdapter } from '../protocols/types.ts';
import type { Usage } from './types.ts';

const USAGE_MARK = Buffer.from('sage');
/** A usage object (not `"usage":null`, which OpenAI streams repeat on every chunk). */
const OBJECT_MARKS = ['"usage":{', '"usage": {', '"usageMetadata":{', '"usageMetadata": {'];
const OBJECT_MARK_BYTES = OBJECT_MARKS.map((mark) => Buffer.from(mark));

function hasUsageObject(chunk: Buffer): boolean {
  for (const mark of OBJECT_MARK_BYTES) if (chunk.indexOf(mark) !== -1) return true;
  return false;
}

function mentionsUsageObject(line: string): boolean {
  for (const mark of OBJECT_MARKS) if (line.includes(mark)) return true;
  return false;
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

  constructor(
    private readonly adapter: ProtocolAdapter,
    private readonly usage: Usage,
    private readonly sse: boolean,
  ) {}

  /** Looks at one chunk of the response body. */
  push(chunk: Buffer): void {
    if (!this.sse) {
      this.size += chunk.length;
      if (this.size <= MAX_JSON_BYTES) this.chunks.push(chunk);
      return;
    }
    if (!this.tail && !hasUsageObject(chunk)) {
      const lastBreak = chunk.lastIndexOf(10);
      if (lastBreak !== chunk.length - 1) this.tail = chunk.toString('utf8', lastBreak + 1);
      return;
    }
    const text = this.tail + chunk.toString('utf8');
    const lastBreak = text.lastIndexOf('\n');
    this.tail = text.slice(lastBreak + 1);
    if (this.tail.length > MAX_JSON_BYTES) this.tail = '';
    for (const line of text.slice(0, lastBreak + 1).split('\n')) {
      if (line.startsWith('data:') && mentionsUsageObject(line)) this.readJson(line.slice(5));
    }
  }

  /** Finishes after the last chunk. */
  end(): void {
    if (this.sse) {
      if (this.tail.startsWith('data:') && mentionsUsageObject(this.tail)) this.readJson(this.tail.slice(5));
      return;
    }
    if (this.size > MAX_JSON_BYTES || this.size === 0) return;
    const body = this.chunks.length === 1 ? this.chunks[0] : Buffer.concat(this.chunks);
    if (body.indexOf(USAGE_MARK) !== -1) this.readJson(body.toString('utf8'));
  }

  private readJson(text: string): void {
    try {
      mergeUsage(this.usage, this.adapter.readUsage(JSON.parse(text)));
    } catch {
      // not JSON: nothing to count
    }
  }
}
