/**
 * The adapter interfaces of cross-protocol chat translation (modelled on the request / response /
 * response-error split of envoyproxy/ai-gateway's translators, but through one canonical shape so that
 * N adapters serve N x N pairs). A protocol adapter implements both sides; a client-only style (the
 * responses and legacy completions requests) implements the client side.
 */
import type { SseEvent, SseParser } from '../sse/parse.ts';
import type { CanonicalRequest, CanonicalResponse, StreamEvent, VendorError } from './canonical.ts';
import type { FieldPolicy } from './field-policy.ts';
import type { ReasoningBudgets } from '../config/types.ts';

/** What a client adapter needs to decode a request. */
export interface DecodeOptions {
  policy: FieldPolicy;
  /** Streaming decided by the route rather than the body (the generate-content stream route). */
  stream?: boolean;
}

/** What a vendor adapter needs to encode a request. */
export interface EncodeOptions {
  /** The model name the vendor knows. */
  model: string;
  policy: FieldPolicy;
  /** Sent as the maximum output tokens when the protocol requires a value and the client gave none. */
  defaultMaxTokens: number;
  /** `auto`: a protocol with explicit prompt-cache breakpoints places them (model `chat.cache`). */
  cache?: 'auto';
  /** The field of the output-token limit on protocols that have two (request-facts.ts). */
  maxTokensField?: 'max_tokens' | 'max_completion_tokens';
  /** The reasoning request shape the model takes (request facts' `reasoning`; absent: the protocol's default). */
  reasoningShape?: string;
  /** The model's effort -> budget table (`chat.reasoning`; absent: the default of reasoning-budget.ts). */
  reasoningBudgets?: ReasoningBudgets;
  /** The client style's field names (canonical -> client path), for 400s raised while encoding. */
  fieldNames?: Readonly<Record<string, string>>;
}

/** A request ready for the vendor: path relative to its base URL, the JSON body, and any header of its own. */
export interface VendorCall {
  path: string;
  body: Record<string, unknown>;
  /** Request headers over the JSON and SSE defaults (a protocol whose stream is not SSE says what it accepts). */
  headers?: Record<string, string>;
}

/** Identity of the answer as the client sees it. */
export interface ResponseMeta {
  /** Answer id (vendor id or a generated one), without a style prefix. */
  id: string;
  /** The model id the client asked for. */
  model: string;
  /** Unix seconds. */
  created: number;
  /** Whether the gateway keeps this answer (responses style; absent: not kept). */
  store?: boolean;
  /** The response this one continues (responses style). */
  previousResponseId?: string;
  /** The target that made the answer's reasoning signatures (reasoning-signature.ts). */
  origin?: string;
  /**
   * The request's input tokens as estimated by the gateway, for a stream whose first event carries the
   * input count before the vendor reported it (messages style).
   */
  estimateInputTokens?(): number;
}

/** Turns a vendor's SSE events into canonical stream events (one instance per stream). */
export interface StreamDecoder {
  /**
   * The canonical events of one SSE event. The list is read before the next call: a decoder may hand
   * back the same list object each time (its events are new objects every time).
   */
  decode(event: SseEvent): readonly StreamEvent[];
  /** True once the vendor signalled a complete answer (a stream that ends before this was cut). */
  readonly done: boolean;
}

/** Turns canonical stream events into the client's SSE text (one state machine per stream). */
export interface StreamEncoder {
  /** SSE text for one event (possibly empty). */
  encode(event: StreamEvent): string;
  /** The closing SSE text after the last event (final usage, stop markers, `[DONE]`). */
  end(): string;
  /** The whole answer as `end()` will describe it (styles whose stream ends with one: responses). */
  result?(): Record<string, unknown>;
}

/** The client side: what a caller style sends and expects back. */
export interface ClientAdapter {
  /** Canonical field names (e.g. `topK`, `messages`) -> this style's field paths, for error messages. */
  readonly fieldNames: Readonly<Record<string, string>>;
  decodeRequest(body: unknown, options: DecodeOptions): CanonicalRequest;
  encodeResponse(response: CanonicalResponse, meta: ResponseMeta, request: CanonicalRequest): unknown;
  createStreamEncoder(meta: ResponseMeta, request: CanonicalRequest): StreamEncoder;
}

/** The vendor side: what a vendor protocol accepts and answers. */
export interface VendorAdapter {
  encodeRequest(request: CanonicalRequest, options: EncodeOptions): VendorCall;
  decodeResponse(body: unknown): CanonicalResponse;
  createStreamDecoder(): StreamDecoder;
  /** Frames a stream body that is not SSE into events for the decoder (absent: the body is SSE). */
  createStreamParser?(onEvent: (event: SseEvent) => void): SseParser;
  /** Reads a vendor error body (parsed JSON, or the raw text when it was not JSON). */
  decodeError(status: number, body: unknown): VendorError;
}

/** A protocol adapter: both sides of one chat protocol. */
export interface ChatAdapter extends ClientAdapter, VendorAdapter {}
