import type { ProtocolAdapter } from '../protocols/types.ts';
import { readFinishReasons } from './finish-reasons.ts';
import { addUsage, findUsageObject, hasErrorField } from './json-usage.ts';
import type { Redactor } from './redact.ts';
import type { Usage } from './types.ts';

const NEWLINE = 0x0a;

/**
 * Watches an SSE stream on its way to the client, byte for byte: reads token usage from the events that
 * carry a usage object and, when `dropUsageEvents`, removes the usage-only events the gateway asked for
 * on the client's behalf. Bytes pass through as they come; only a trailing partial line waits for its end.
 * Events are parsed only when they hold a usage object (once or twice per stream). Error events (found by
 * one byte search, like usage events) have every secret of `redactor` removed; other bytes are not scanned.
 * With `reasons`, the finish reasons the events state are collected there (one byte search per read).
 * With `ownsChunks` (the chunks pushed are the tap's alone, as a vendor call's are), a dropped event is cut out
 * in place: the bytes after it move down over it, and no buffer is allocated for the rest of the read.
 */
export class StreamTap {
  private tail: Buffer | undefined;
  private skipBlank = false;
  private readonly redactor: Redactor | undefined;

  constructor(
    private readonly adapter: ProtocolAdapter,
    private readonly usage: Usage,
    private readonly dropUsageEvents: boolean,
    redactor?: Redactor,
    private readonly reasons?: { finishReasons?: string[] },
    private readonly ownsChunks = false,
  ) {
    this.redactor = redactor?.forms.length ? redactor : undefined;
  }

  /** Takes a chunk from the vendor; returns the bytes to send now. */
  push(chunk: Buffer): Buffer {
    return this.redact(this.pass(chunk));
  }

  /** The complete lines of the bytes so far, usage read and usage-only events dropped. */
  private pass(chunk: Buffer): Buffer {
    const bytes = this.tail ? Buffer.concat([this.tail, chunk]) : chunk;
    const lastBreak = bytes.lastIndexOf(NEWLINE);
    if (lastBreak === -1) {
      this.tail = bytes;
      return EMPTY;
    }
    this.tail = lastBreak === bytes.length - 1 ? undefined : bytes.subarray(lastBreak + 1);
    const complete = this.tail ? bytes.subarray(0, lastBreak + 1) : bytes;
    if (this.reasons) this.reasons.finishReasons = readFinishReasons(complete, this.adapter, this.reasons.finishReasons);
    // Bytes joined with a held tail are a copy made here: the tap's own, whoever owns the chunk.
    return this.readLines(complete, this.ownsChunks || bytes !== chunk);
  }

  /** The stream ended: the bytes still held (a line without its end: passed as it is, not read). */
  end(): Buffer {
    const rest = this.tail ?? EMPTY;
    this.tail = undefined;
    if (this.reasons && rest.length) this.reasons.finishReasons = readFinishReasons(rest, this.adapter, this.reasons.finishReasons);
    return this.redact(rest);
  }

  /** `out` without secrets when it holds an error event. */
  private redact(out: Buffer): Buffer {
    return this.redactor && out.length !== 0 && hasErrorField(out) ? this.redactor.redactBytes(out) : out;
  }

  /**
   * `bytes` (complete lines) without the usage-only events to drop, the usage of every `data:` line that
   * holds a usage object read. Only the lines holding a usage field are looked at (one byte search finds
   * the next); the bytes between them pass as they are, and are copied only around a dropped event (within
   * `bytes` itself when `owned`).
   */
  private readLines(bytes: Buffer, owned: boolean): Buffer {
    let spans: number[] | undefined;
    let next = this.skipBlank ? this.skipBlankLine(bytes, 0) : 0;
    let kept = next;
    for (let at = findUsageObject(bytes, this.adapter, next); at !== -1; at = findUsageObject(bytes, this.adapter, next)) {
      const lineStart = bytes.lastIndexOf(NEWLINE, at) + 1;
      const lineEnd = bytes.indexOf(NEWLINE, at);
      next = lineEnd + 1;
      if (!this.readEventLine(bytes, lineStart, lineEnd)) continue;
      if (lineStart > kept) (spans ??= []).push(kept, lineStart);
      this.skipBlank = true;
      next = this.skipBlankLine(bytes, next);
      kept = next;
    }
    if (kept === 0) return bytes;
    if (kept < bytes.length) (spans ??= []).push(kept, bytes.length);
    return spans === undefined ? EMPTY : joinSpans(bytes, spans, owned);
  }

  /**
   * Where the line at `at` ends (after its newline) when it is the blank line that ends a dropped event,
   * else `at`; the blank line is waited for no longer once a line is seen (or this is the end of `bytes`).
   */
  private skipBlankLine(bytes: Buffer, at: number): number {
    if (at >= bytes.length) return at;
    this.skipBlank = false;
    if (bytes[at] === NEWLINE) return at + 1;
    return bytes[at] === RETURN && bytes[at + 1] === NEWLINE ? at + 2 : at;
  }

  /**
   * Reads the usage of the line from `start` to its newline at `end` when it is a `data:` line holding a
   * usage object; true when the event is to be dropped.
   */
  private readEventLine(bytes: Buffer, start: number, end: number): boolean {
    const bare = end > start && bytes[end - 1] === RETURN ? end - 1 : end;
    if (bare - start < DATA.length || bytes.compare(DATA, 0, DATA.length, start, start + DATA.length) !== 0) return false;
    if (findUsageObject(bytes, this.adapter, start, bare) === -1) return false;
    let json: unknown;
    try {
      json = JSON.parse(bytes.toString('utf8', start + DATA.length, bare));
    } catch {
      return false;
    }
    addUsage(this.usage, this.adapter.readUsage(json));
    return this.dropUsageEvents && this.adapter.isUsageOnlyEvent?.(json) === true;
  }
}

/**
 * The spans of `bytes` (start and end pairs, in order) as one buffer: copied into a new one, or, when `inPlace`,
 * moved down behind the first span within `bytes` (no allocation: a dropped event is usually near the end).
 */
function joinSpans(bytes: Buffer, spans: number[], inPlace: boolean): Buffer {
  if (spans.length === 2) return bytes.subarray(spans[0], spans[1]);
  if (!inPlace) {
    const pieces: Buffer[] = [];
    for (let i = 0; i < spans.length; i += 2) pieces.push(bytes.subarray(spans[i], spans[i + 1]));
    return Buffer.concat(pieces);
  }
  let end = spans[1];
  for (let i = 2; i < spans.length; i += 2) {
    bytes.copyWithin(end, spans[i], spans[i + 1]);
    end += spans[i + 1] - spans[i];
  }
  return bytes.subarray(spans[0], end);
}

const DATA = Buffer.from('data:');
const RETURN = 0x0d;
const EMPTY = Buffer.alloc(0);
