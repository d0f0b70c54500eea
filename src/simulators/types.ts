import type { Protocol } from '../config/types.ts';

/** One request a simulator received, exactly as it arrived (raw body bytes). */
export interface RecordedRequest {
  method: string;
  /** Path and query as sent by the client. */
  url: string;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/**
 * A fault a simulator plays instead of (or around) its normal answer.
 * - `status`: a vendor error; `body` defaults to the vendor's own error shape for that status.
 * - `reset-before-headers`: the connection is dropped before any response byte.
 * - `reset-mid-stream`: headers and `afterEvents` stream events (or half of a whole body) are sent, then the
 *   connection is dropped.
 * - `delay`: the normal answer after `ms` milliseconds. `hang`: never answers (until close()).
 * - `garbage`: HTTP 200 whose body is not JSON.
 */
export type Fault =
  | { kind: 'status'; status: number; body?: unknown; headers?: Record<string, string> }
  | { kind: 'reset-before-headers' }
  | { kind: 'reset-mid-stream'; afterEvents: number }
  | { kind: 'delay'; ms: number }
  | { kind: 'hang' }
  | { kind: 'garbage' };

/** A running simulated vendor: a real HTTP server on 127.0.0.1. */
export interface Simulator {
  /** The base URL a gateway.yaml vendor uses. */
  url: string;
  /** Every request, in order, raw body bytes (empty when started with `record: false`). */
  received: RecordedRequest[];
  /** Queues `fault` for the next `times` requests (default 1), whatever their path. */
  failNext(fault: Fault, times?: number): void;
  /** Clears `received` and the queued faults. */
  reset(): void;
  /** Stops the server and drops every open connection (hanging ones included). */
  close(): Promise<void>;
}

/** Options of every `start*Simulator`. */
export interface SimulatorOptions {
  /** The API key the simulator accepts (default: SIMULATOR_KEYS of that vendor). */
  key?: string;
  /** Listen host (default 127.0.0.1). */
  host?: string;
  /** Listen port (default 0: an ephemeral port). */
  port?: number;
  /** Chat streams emit exactly this many content events (the reply is cut into that many pieces). */
  streamEvents?: number;
  /** Milliseconds to wait before each content event of a chat stream (default 0). */
  streamIntervalMs?: number;
  /** Set false to skip recording `received` (the benchmark: no memory growth). Default true. */
  record?: boolean;
  /**
   * Messages streams only: what `message_delta.usage` carries. `repeat-input` (default) repeats the input
   * counts beside `output_tokens`, as the verified transcript does (fixtures/anthropic/messages-stream.sse);
   * `output-only` sends `output_tokens` alone, as Anthropic's documented example does
   * (fixtures/anthropic/messages-stream-output-only-usage.sse).
   */
  messageDeltaUsage?: 'repeat-input' | 'output-only';
  /**
   * OpenAI and Gemini chat only: this many prompt tokens (at most all of them) are reported as read from
   * the vendor's automatic prompt cache (`prompt_tokens_details.cached_tokens`, `cachedContentTokenCount`,
   * both included in the prompt count). The Anthropic simulator caches by `cache_control` instead.
   */
  cachedInputTokens?: number;
}

/** The vendors that have a simulator: every protocol of the registry (src/protocols/index.ts) has one. */
export type SimulatedVendor = Protocol;
