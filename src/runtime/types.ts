import type { GatewayError } from '../errors.ts';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Readable } from 'node:stream';
import type {
  CompiledConfig,
  KeyEntry,
  ModelEntry,
  Operation,
  RouteEntry,
  Style,
  TargetEntry,
  VendorEntry,
} from '../config/types.ts';
import type { Dispatcher } from 'undici';
import type { AbortSource } from './abort-source.ts';
import type { ProtocolAdapter, Usage, VendorRequest, VendorSigner } from '../protocols/types.ts';
import type { Redactor } from './redact.ts';
import type { ResponseStore } from '../response-store/response-store.ts';

export type { Usage, VendorRequest } from '../protocols/types.ts';

/** The usage a request is charged: the vendor's counts, or the gateway's estimate (`estimate-usage.ts`). */
export interface ChargedUsage extends Usage {
  /** Set when the counts are an estimate: the vendor's own never arrived. */
  estimated?: boolean;
  /** Images generated (priced per image). */
  images?: number;
}

/** The one event every request ends with: logs, metrics and token limits all read it. */
export interface UsageEvent {
  requestId: string;
  key?: string;
  model?: string;
  vendor?: string;
  op?: Operation;
  /** The vendor-native entry served (`op: native` routes only). */
  native?: string;
  style: Style;
  status: number;
  /** Error code when the request failed. */
  error?: string;
  /** What made the gateway fail with 500 `internal_error` (an Error with its stack), for the log. */
  cause?: unknown;
  /** Milliseconds from arrival to the first response byte and to the end, to the microsecond (three decimals). */
  ttfbMs?: number;
  durationMs: number;
  /** Number of vendor calls the request made (retries, fallbacks, fan-out). */
  vendorCalls: number;
  usage: ChargedUsage;
  /** The request's method and path without its query string (a client may put its key there). */
  method: string;
  path: string;
  /** The matched route's path template (absent: no route matched). */
  route?: string;
  /** The client's address: the socket's, or `X-Forwarded-For`'s first entry when `server.trust_proxy` is on. */
  client?: string;
  /** The serving process (a worker with `--workers`). */
  pid: number;
  /** The last target tried, as `vendor/upstream`. */
  target?: string;
  /** Attempts made on targets (retries and fallbacks included; 0 when no target was tried). */
  attempts: number;
  /** Targets of the attempts that failed before the last one, in order (absent: none failed). */
  failedTargets?: string[];
  /** Targets skipped because they were cooling down (absent: none). */
  coolingTargets?: string[];
  /** Milliseconds the gateway spent outside vendor calls (the duration minus the time vendors took). */
  overheadMs: number;
  /** What the request cost in USD under its model's price (absent when the model has no price). */
  costUsd?: number;
  /** The config generation (`Snapshot.generation`) the request started on and was served by. */
  generation: number;
  /** Why the model stopped, per choice or candidate, when the answer said (read only while traces are on). */
  finishReasons?: string[];
}

/** A vendor resolved at start: its config plus secret and connection pool. */
export interface RuntimeVendor {
  config: VendorEntry;
  /** The vendor credential value, resolved from the environment at start (never logged). */
  secret?: string;
  /** Signs each call (auth `signed`), made from the credentials at start or reload. */
  signer?: VendorSigner;
  dispatcher: Dispatcher;
  origin: string;
  /** Path prefix of the base URL (e.g. `/v1`), joined before each upstream path. */
  basePath: string;
  /** Who made the reasoning signatures of this vendor's answers, as tokens carry it (`getSignatureOrigin`). */
  signatureOrigin: string;
  /** Removes every secret of the snapshot from what this vendor says (absent: nothing to remove). */
  redactor?: Redactor;
  /** The bytes of `config.caFile` the pool was made with (a reload keeps the pool only while they are the same). */
  caBytes?: Buffer;
}

/** A client key resolved at start. */
export interface RuntimeKey {
  config: KeyEntry;
  /** sha256 digest of the secret, compared in constant time. */
  digest: Buffer;
  /** The key's model globs compiled once. */
  allows: (model: string) => boolean;
}

/** The immutable per-process snapshot a request takes at its start (reload swaps the pointer). */
export interface Snapshot {
  config: CompiledConfig;
  /** The config generation: 1 for the config the process started with, +1 per successful reload. */
  generation: number;
  vendors: Map<string, RuntimeVendor>;
  models: Map<string, ModelEntry>;
  keys: RuntimeKey[];
  /** Finds the route of a method and path. */
  match(method: string, path: string): RouteMatch | undefined;
  /** The error style of a path no route matched (src/runtime/unrouted-style.ts). */
  getUnroutedStyle(path: string): Style;
  /** The secret that signs task ids. */
  taskSecret: string;
  /** Removes every secret the gateway holds (vendor keys, client keys, task secret, store password). */
  redactor: Redactor;
}

/** A matched route and its path parameters. */
export interface RouteMatch {
  route: RouteEntry;
  params: Record<string, string>;
  /** The path parameter whose percent-escapes did not decode (the request is answered 400). */
  invalidParam?: string;
}

/** A request to a vendor, relative to its base URL. Auth and configured headers are added for you. */
/** A vendor's answer; `body` must be consumed or destroyed. */
export interface VendorResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: VendorBody;
}

/** A vendor answer's body as a stream, with undici's `json()` and `text()`. */
export type VendorBody = Readable & { json(): Promise<unknown>; text(): Promise<string> };

/** What reads a vendor body chunk by chunk, without a stream: called synchronously, it must not throw. */
export interface BodySink {
  onData(chunk: Buffer): void;
  onEnd(): void;
  onError(error: unknown): void;
}

/** A vendor body read into a {@link BodySink}: `read` starts it (or moves it to another sink). */
export interface BodyReading {
  read(sink: BodySink): void;
  /** Stops the vendor's body after the chunk being read, until `resume`. */
  pause(): void;
  resume(): void;
  /** Aborts the call unless the body ended: the vendor sees its connection close. */
  destroy(): void;
}

/** The per-request context: one id, one deadline and one AbortSignal for every attempt. */
export interface RequestContext {
  id: string;
  /** performance.now() at arrival. */
  startedAt: number;
  /** Epoch ms after which no new vendor attempt starts. */
  deadline: number;
  /** Aborted when the client leaves (made on first use: prefer `abortSource` for vendor calls). */
  readonly signal: AbortSignal;
  /** The same abort as a cheap emitter, accepted by undici as a request signal. */
  readonly abortSource: AbortSource;
  style: Style;
  route: RouteEntry;
  /** Whether `route` is a configured route (false: the request matched none). */
  readonly matched?: boolean;
  params: Record<string, string>;
  /** The query string without `?` ('' when none); `query` parses it on first use. */
  rawQuery: string;
  query: URLSearchParams;
  snapshot: Snapshot;
  key?: RuntimeKey;
  modelId?: string;
  model?: ModelEntry;
  target?: TargetEntry;
  vendor?: RuntimeVendor;
  /** Token usage reported by the vendor calls so far (or estimated when the request ends without it). */
  usage: ChargedUsage;
  /** Records the usage of a whole JSON answer, read from its bytes when `usage` is first read. */
  addAnswerUsage(body: Buffer, adapter: ProtocolAdapter): void;
  /**
   * Why the model stopped, per choice or candidate: the vendor's own words on a passthrough (read with the
   * usage), the canonical reason (`stop`, `length`, `tool_calls`, `content_filter`, `other`) when translated.
   */
  finishReasons?: string[];
  vendorCalls: number;
  /** Attempts made on targets so far, and milliseconds spent in vendor calls (dispatch to body end). */
  attempts: number;
  vendorMs: number;
  /** Targets of failed attempts before the current one, and targets skipped while cooling (made on first use). */
  failedTargets?: string[];
  coolingTargets?: string[];
  /** Bytes of a streamed text (SSE) answer sent to the client so far (for a usage estimate). */
  streamedBytes: number;
  /** The error an open stream was ended with, in-stream (the vendor cut it): its usage counts are then partial. */
  streamFailure?: GatewayError;
  ttfbMs?: number;
  /** Headers every response of this request carries: `x-request-id` and the key's `x-ratelimit-*`. */
  headers: Record<string, string>;
  /** Called right before the first response byte: from then on no retry and no fallback. Set per attempt. */
  commit?: () => void;
  /** Where Responses API state kept by the gateway lives (the services' store). */
  responseStore?: ResponseStore;
  req: IncomingMessage;
  res: ServerResponse;
}

/**
 * What a non-passthrough handler gets: the context, the parsed body and a way to call the chosen vendor.
 * It writes the response itself (via the helpers in `src/runtime/respond.ts`) or throws a GatewayError.
 * A handler that reads named fields of the body says which schema checked it: `OpCall<RequestBody<'Responses'>>`
 * (request-body.ts, the generated OpenAPI types).
 */
export interface OpCall<Body = any> {
  ctx: RequestContext;
  /** Parsed JSON body (undefined for GET and multipart routes). */
  body: Body;
  /** Raw body bytes of a JSON route. */
  raw?: Buffer;
  /** The request body of a multipart route, replaying the client's bytes. */
  upload?: Readable;
  model: ModelEntry;
  target: TargetEntry;
  vendor: RuntimeVendor;
  /** Calls `vendor` (or another vendor by name) with auth, headers, timeouts and the request's signal. */
  callVendor(request: VendorRequest, vendorName?: string): Promise<VendorResponse>;
}

/** A handler serving an operation in some (style, protocol) combination (`Body`: see {@link OpCall}). */
export type OpHandler<Body = any> = (call: OpCall<Body>) => Promise<void>;
