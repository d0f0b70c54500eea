import type { ProtocolAdapter } from '../protocols/types.ts';
import { readFinishReasons } from './finish-reasons.ts';
import { addUsage, hasErrorField } from './json-usage.ts';
import type { Redactor } from './redact.ts';
import { findNullUsageCuts, getUsageNameNeedles } from './null-usage-cuts.ts';
import { getUsageOrErrorPattern, getUsagePattern, isUsageMatch } from './stream-field-patterns.ts';
import type { Usage } from './types.ts';

const NEWLINE = 0x0a;

/**
 * Watches an SSE stream on its way to the client, byte for byte: reads token usage from the events that
 * carry a usage object and, when `dropUsageEvents`, removes the usage-only events the gateway asked for
 * on the client's behalf, and the `null` usage fields that asking put in every other event when the protocol
 * says so (`askedUsageLeavesNull`). Bytes pass through as they come; only a trailing partial line waits for its end.
 * Events are parsed only when they hold a usage object (once or twice per stream). Error events have every
 * secret of `redactor` removed; other bytes are not scanned. Each read's complete lines are decoded once as
 * latin1 (a byte per character) and searched there: usage objects and error fields by one regular expression
 * search for both (usage objects alone when there is no secret to keep out of error events), not one
 * Buffer#indexOf call per `"usage"` of every event.
 * With `reasons`, the finish reasons the events state are collected there (one byte search per read).
 * With `ownsChunks` (the chunks pushed are the tap's alone, as a vendor call's are), a dropped event is cut out
 * in place: the bytes after it move down over it, and no buffer is allocated for the rest of the read.
 */
export class StreamTap {
  private tail: Buffer | undefined;
  private skipBlank = false;
  /** Whether the text {@link readLines} last read holds an error field (looked for only with a redactor). */
  private sawError = false;
  private readonly redactor: Redactor | undefined;
  /** The usage field names (with their closing quotes) whose `null` members to remove (only with `dropUsageEvents`, for a protocol whose events carry them then). */
  private readonly nullUsage: string[] | undefined;

  constructor(
    private readonly adapter: ProtocolAdapter,
    private readonly usage: Usage,
    private readonly dropUsageEvents: boolean,
    redactor?: Redactor,
    private readonly reasons?: { finishReasons?: string[] },
    private readonly ownsChunks = false,
  ) {
    this.redactor = redactor?.forms.length ? redactor : undefined;
    this.nullUsage = dropUsageEvents && adapter.askedUsageLeavesNull ? getUsageNameNeedles(adapter) : undefined;
  }

  /**
   * Takes a chunk from the vendor; returns the bytes to send now: the complete lines of the bytes so far,
   * usage read, usage-only events dropped, secrets removed when they hold an error event.
   */
  push(chunk: Buffer): Buffer {
    const bytes = this.tail ? Buffer.concat([this.tail, chunk]) : chunk;
    const lastBreak = bytes.lastIndexOf(NEWLINE);
    if (lastBreak === -1) {
      this.tail = bytes;
      return EMPTY;
    }
    this.tail = lastBreak === bytes.length - 1 ? undefined : bytes.subarray(lastBreak + 1);
    const complete = this.tail ? bytes.subarray(0, lastBreak + 1) : bytes;
    if (this.reasons) this.reasons.finishReasons = readFinishReasons(complete, this.adapter, this.reasons.finishReasons);
    const text = complete.toString('latin1');
    // Bytes joined with a held tail are a copy made here: the tap's own, whoever owns the chunk.
    const out = this.readLines(complete, text, this.ownsChunks || bytes !== chunk);
    // Dropping whole `data:` lines makes no error field (one that reached into a dropped line was one before):
    // only bytes whose text holds one are searched again, as sent, when events were dropped.
    if (!this.redactor || out.length === 0 || !this.sawError) return out;
    return out === complete || hasErrorField(out) ? this.redactor.redactBytes(out) : out;
  }

  /** The stream ended: the bytes still held (a line without its end: passed as it is, not read; without secrets when it holds an error event). */
  end(): Buffer {
    const rest = this.tail ?? EMPTY;
    this.tail = undefined;
    if (this.reasons && rest.length) this.reasons.finishReasons = readFinishReasons(rest, this.adapter, this.reasons.finishReasons);
    return this.redactor && rest.length !== 0 && hasErrorField(rest) ? this.redactor.redactBytes(rest) : rest;
  }

  /**
   * `bytes` (complete lines; `text`, the same decoded as latin1) without the usage-only events to drop, the
   * usage of every `data:` line that holds a usage object read. Only the lines holding a usage object are
   * looked at (one search finds the next); the bytes between them pass as they are, and are copied only
   * around a dropped event (within `bytes` itself when `owned`). With a redactor the same search notes
   * whether `text` holds an error field (`sawError`), so it goes on past the rest of a line read, until one is found.
   */
  private readLines(bytes: Buffer, text: string, owned: boolean): Buffer {
    this.sawError = false;
    let findsErrors = this.redactor !== undefined;
    let pattern = findsErrors ? getUsageOrErrorPattern(this.adapter) : getUsagePattern(this.adapter);
    let spans: number[] | undefined;
    const cuts = this.nullUsage && findNullUsageCuts(this.nullUsage, text);
    let next = this.skipBlank ? this.skipBlankLine(bytes, 0) : 0;
    let kept = next;
    for (let match = findFrom(pattern, text, next); match !== null; match = pattern.exec(text)) {
      const at = match.index;
      if (findsErrors && !isUsageMatch(text, pattern)) {
        // The first error field: the rest is searched for usage objects alone, from the character after its start.
        this.sawError = true;
        findsErrors = false;
        pattern = getUsagePattern(this.adapter);
        pattern.lastIndex = Math.max(at + 1, next);
        continue;
      }
      // A usage object later on a line already read (the search for error fields went on through it).
      if (at < next) continue;
      const objectEnd = pattern.lastIndex;
      // Found in the bytes by one native byte search: a string's lastIndexOf is a call into V8's runtime that compares character by character.
      const lineStart = bytes.lastIndexOf(NEWLINE, at) + 1;
      const lineEnd = text.indexOf('\n', at);
      next = lineEnd + 1;
      // Read when a `data:` line holds the object (its brace on the line); cut out when an event to drop.
      if (this.readEventLine(bytes, text, lineStart, lineEnd, objectEnd)) {
        if (lineStart > kept) spans = addSpan(spans, kept, lineStart, cuts);
        this.skipBlank = true;
        next = this.skipBlankLine(bytes, next);
        kept = next;
      }
      // Searching for usage objects alone, the rest of the line is skipped.
      if (!findsErrors && pattern.lastIndex < next) pattern.lastIndex = next;
    }
    if (kept === 0 && cuts === undefined) return bytes;
    if (kept < bytes.length) spans = addSpan(spans, kept, bytes.length, cuts);
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
   * Reads the usage of the line from `start` to its newline at `end` when it is a `data:` line holding the
   * usage object whose opening brace ends at `objectEnd`; true when the event is to be dropped.
   */
  private readEventLine(bytes: Buffer, text: string, start: number, end: number, objectEnd: number): boolean {
    const bare = end > start && bytes[end - 1] === RETURN ? end - 1 : end;
    if (objectEnd > bare || bare - start < DATA.length || !text.startsWith(DATA, start)) return false;
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

/** The first match of the global `pattern` in `text` at or after `from` (`pattern.lastIndex` then ends it), or null. */
function findFrom(pattern: RegExp, text: string, from: number): RegExpExecArray | null {
  pattern.lastIndex = from;
  return pattern.exec(text);
}

/**
 * `spans` with the bytes from `from` to `to` kept, less the `cuts` within them (a cut lies within one line, and a
 * span's ends are line ends, so a cut is wholly in a span or out of it).
 */
function addSpan(spans: number[] | undefined, from: number, to: number, cuts: number[] | undefined): number[] | undefined {
  if (cuts !== undefined) {
    for (let i = 0; i < cuts.length; i += 2) {
      if (cuts[i] < from || cuts[i + 1] > to) continue;
      if (cuts[i] > from) (spans ??= []).push(from, cuts[i]);
      from = cuts[i + 1];
    }
  }
  if (to > from) (spans ??= []).push(from, to);
  return spans;
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

const DATA = 'data:';
const RETURN = 0x0d;
const EMPTY = Buffer.alloc(0);
