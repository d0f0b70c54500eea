import type { ProtocolAdapter } from '../../src/protocols/types.ts';
import { readFinishReasons } from '../../src/runtime/finish-reasons.ts';
import { addUsage, findUsageObject, hasErrorField } from '../../src/runtime/json-usage.ts';
import type { Redactor } from '../../src/runtime/redact.ts';
import type { Usage } from '../../src/runtime/types.ts';

/**
 * A plain model of the stream tap, the oracle of stream-tap-equivalence.test.ts: what the tap did before it
 * read bytes in place (main 42bd21e), written for clarity. Each piece's complete lines are decoded and read
 * one by one as strings: a `data:` line holding a usage object has its usage read, and is dropped with the
 * blank line after it when it is a usage-only event to drop; a trailing partial line waits for the next piece
 * and is passed unread at the end. When dropping for a protocol whose events then carry `"usage": null`, each
 * kept line has those fields (and the comma joining each to its object) taken out. The bytes out are redacted
 * when they hold an error field.
 */
export class ReferenceStreamTap {
  #held = Buffer.alloc(0);
  #skipBlank = false;

  constructor(
    private readonly adapter: ProtocolAdapter,
    private readonly usage: Usage,
    private readonly drop: boolean,
    private readonly redactor?: Redactor,
    private readonly reasons?: { finishReasons?: string[] },
  ) {}

  push(chunk: Buffer): Buffer {
    const bytes = Buffer.concat([this.#held, chunk]);
    const cut = bytes.lastIndexOf(0x0a) + 1;
    this.#held = bytes.subarray(cut);
    const complete = bytes.subarray(0, cut);
    this.#readReasons(complete);
    const lines = complete.toString().split('\n').slice(0, -1);
    const kept = lines.filter((line) => this.#keep(line));
    return this.#redact(Buffer.from(kept.map((line) => `${this.#withoutNullUsage(line)}\n`).join('')));
  }

  end(): Buffer {
    const rest = this.#held;
    this.#held = Buffer.alloc(0);
    this.#readReasons(rest);
    return this.#redact(rest);
  }

  /** Reasons are read before any event is dropped (a usage event may state one). */
  #readReasons(bytes: Buffer): void {
    if (this.reasons && bytes.length > 0) this.reasons.finishReasons = readFinishReasons(bytes, this.adapter, this.reasons.finishReasons);
  }

  #redact(bytes: Buffer): Buffer {
    return this.redactor?.forms.length && bytes.length > 0 && hasErrorField(bytes) ? this.redactor.redactBytes(bytes) : bytes;
  }

  /**
   * `line` without its null usage fields: `,"usage": null` before a `,` or `}`, or `"usage": null,` after a `{`
   * (spaces and tabs between), in one left-to-right pass.
   */
  #withoutNullUsage(line: string): string {
    if (!this.drop || !this.adapter.askedUsageLeavesNull) return line;
    const field = `"(?:${this.adapter.usageFields.join('|')})"[ \\t]*:[ \\t]*null`;
    return line.replace(new RegExp(`,[ \\t]*${field}(?=[ \\t]*[,}])|(?<=\\{[ \\t]*)${field}[ \\t]*,[ \\t]*`, 'g'), '');
  }

  #keep(line: string): boolean {
    const bare = line.endsWith('\r') ? line.slice(0, -1) : line;
    const skipBlank = this.#skipBlank;
    this.#skipBlank = false;
    if (skipBlank && bare === '') return false;
    if (!bare.startsWith('data:') || findUsageObject(Buffer.from(bare), this.adapter) === -1) return true;
    let json: unknown;
    try {
      json = JSON.parse(bare.slice(5));
    } catch {
      return true;
    }
    addUsage(this.usage, this.adapter.readUsage(json));
    this.#skipBlank = this.drop && this.adapter.isUsageOnlyEvent?.(json) === true;
    return !this.#skipBlank;
  }
}
