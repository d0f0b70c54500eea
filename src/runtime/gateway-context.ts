import type { IncomingMessage, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import type { ProtocolAdapter } from '../protocols/types.ts';
import type { GatewayError } from '../errors.ts';
import type { Admission } from '../limits/limiter.ts';
import { AbortSource } from './abort-source.ts';
import { isReadingFinishReasons, readFinishReasons } from './finish-reasons.ts';
import { addUsage, readUsageFromJson } from './json-usage.ts';
import type { RequestContext, Snapshot, Usage } from './types.ts';
import { createRequestId } from './request-id.ts';

/** How long a request may take before no new vendor attempt starts (the interface's long generations). */
const REQUEST_DEADLINE_MS = 600_000;

/**
 * The context of one request. Whatever the fast path may not need is made on first use: the query
 * string's parse, the AbortSignal, the deadline and the usage of a JSON answer (read from its bytes only
 * when a log line or a token limit asks for it; its finish reasons with it, when traces read them).
 */
export class GatewayContext implements RequestContext {
  readonly id = createRequestId();
  readonly startedAt = performance.now();
  readonly style: RequestContext['style'];
  readonly route: RequestContext['route'];
  readonly params: Record<string, string>;
  readonly rawQuery: string;
  readonly headers: Record<string, string>;
  readonly matched: boolean;
  /** The path parameter whose percent-escapes did not decode (answered 400). */
  readonly invalidParam?: string;
  readonly abortSource = new AbortSource();
  /**
   * The request's JSON body has all arrived and been read (Node may mark the request `complete` only a
   * moment later): an answer now does not cut an upload short.
   */
  bodyReceived = false;
  /** Its place in the gateway's list of requests in flight (in-flight-list.ts); -1 when not in it. */
  inFlightSlot = -1;
  vendorCalls = 0;
  attempts = 0;
  vendorMs = 0;
  failedTargets?: string[] = undefined;
  coolingTargets?: string[] = undefined;
  streamedBytes = 0;
  streamFailure?: GatewayError = undefined;
  key?: RequestContext['key'];
  modelId?: string;
  model?: RequestContext['model'];
  target?: RequestContext['target'];
  vendor?: RequestContext['vendor'];
  ttfbMs?: number;
  commit?: () => void;
  responseStore?: RequestContext['responseStore'] = undefined;
  /** The request's admission by its key's limits, once checked (serve-request.ts; the close handler releases it). */
  admission?: Admission = undefined;
  /** The error the request failed with, as answered (the close handler's usage event reports it). */
  failure?: GatewayError = undefined;
  finishReasons?: string[] = undefined;
  private parsedQuery?: URLSearchParams = undefined;
  private usageTotals: Usage = {};
  private answer?: Buffer = undefined;
  private answerAdapter?: ProtocolAdapter = undefined;

  constructor(
    readonly req: IncomingMessage,
    readonly res: ServerResponse,
    readonly snapshot: Snapshot,
  ) {
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const path = q === -1 ? url : url.slice(0, q);
    this.rawQuery = q === -1 ? '' : url.slice(q + 1);
    const match = snapshot.match(req.method ?? 'GET', path);
    this.matched = match !== undefined;
    this.route = match?.route ?? { method: 'GET', path, style: snapshot.getUnroutedStyle(path), op: 'models-list', model: { from: 'none', name: '' }, body: 'none' };
    this.style = this.route.style;
    this.params = match?.params ?? {};
    if (match?.invalidParam !== undefined) this.invalidParam = match.invalidParam;
    this.headers = { 'x-request-id': this.id };
  }

  get deadline(): number {
    return Math.floor(performance.timeOrigin + this.startedAt) + REQUEST_DEADLINE_MS;
  }

  get signal(): AbortSignal {
    return this.abortSource.signal;
  }

  get query(): URLSearchParams {
    return (this.parsedQuery ??= new URLSearchParams(this.rawQuery));
  }

  get usage(): Usage {
    if (this.answer) {
      addUsage(this.usageTotals, readUsageFromJson(this.answer, this.answerAdapter!));
      if (isReadingFinishReasons()) this.finishReasons = readFinishReasons(this.answer, this.answerAdapter!, this.finishReasons);
      this.answer = undefined;
    }
    return this.usageTotals;
  }

  set usage(usage: Usage) {
    this.answer = undefined;
    this.usageTotals = usage;
  }

  addAnswerUsage(body: Buffer, adapter: ProtocolAdapter): void {
    // Reads an earlier answer's usage first, so a retried call's answer never hides it.
    if (this.answer) void this.usage;
    this.answer = body;
    this.answerAdapter = adapter;
  }
}
