import type { ProtocolAdapter } from '../../src/protocols/types.ts';
import { readFinishReasons } from '../../src/runtime/finish-reasons.ts';
import { addUsage, findUsageObject, hasErrorField, hasUsageObject } from '../../src/runtime/json-usage.ts';
import type { Redactor } from '../../src/runtime/redact.ts';
import type { Usage } from '../../src/runtime/types.ts';

const NEWLINE = 0x0a;

/**
 * The stream tap as it was at main 42bd21e (a line-by-line string reader), kept unchanged as the oracle of
 * test/runtime/stream-tap-equivalence.test.ts: the byte-level tap must hand the client the same bytes and read
 * the same usage and finish reasons for any stream and any cut of it.
 *
 * Its own doc: watches an SSE stream on its way to the client, byte for byte: reads token usage from the events that
 * carry a usage object and, when `dropUsageEvents`, removes the usage-only events the gateway asked for
 * on the client's behalf. Bytes pass through as they come; only a trailing partial line waits for its end.
 * Events are parsed only when they hold a usage object (once or twice per stream). Error events (found by
 * one byte search, like usage events) have every secret of `redactor` removed; other bytes are not scanned.
 * With `reasons`, the finish reasons the events state are collected there (one byte search per read).
 */
export class ReferenceStreamTap {
  private tail: Buffer | undefined;
  private skipBlank = false;
  private readonly redactor: Redactor | undefined;

  constructor(
    private readonly adapter: ProtocolAdapter,
    private readonly usage: Usage,
    private readonly dropUsageEvents: boolean,
    redactor?: Redactor,
    private readonly reasons?: { finishReasons?: string[] },
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
    if (this.skipBlank) return this.readLines(complete);
    const at = findUsageObject(complete, this.adapter);
    if (at === -1) return complete;
    // Only the lines from the first usage event on are read; the events before it pass as they are
    // (a vendor read often holds a whole stream, the usage event last).
    const lineStart = complete.lastIndexOf(NEWLINE, at) + 1;
    if (lineStart === 0) return this.readLines(complete);
    return Buffer.concat([complete.subarray(0, lineStart), this.readLines(complete.subarray(lineStart))]);
  }

  /** The stream ended: the bytes still held. */
  end(): Buffer {
    const rest = this.tail ?? EMPTY;
    this.tail = undefined;
    if (this.reasons && rest.length) this.reasons.finishReasons = readFinishReasons(rest, this.adapter, this.reasons.finishReasons);
    return this.redact(rest.length && hasUsageObject(rest, this.adapter) ? this.readLines(rest) : rest);
  }

  /** `out` without secrets when it holds an error event. */
  private redact(out: Buffer): Buffer {
    return this.redactor && out.length !== 0 && hasErrorField(out) ? this.redactor.redactBytes(out) : out;
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
      if (bare.startsWith('data:') && hasUsageObject(Buffer.from(bare), this.adapter) && this.readEvent(bare.slice(5))) {
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
    addUsage(this.usage, this.adapter.readUsage(json));
    return this.dropUsageEvents && this.adapter.isUsageOnlyEvent?.(json) === true;
  }
}

const EMPTY = Buffer.alloc(0);
