import type { Readable } from 'node:stream';
import type { Operation, Protocol, RequestFacts, Style, VendorEntry } from '../config/types.ts';
import type { ClientAdapter, VendorAdapter } from '../translate/adapter.ts';
import type { CanonicalUsage, VendorError } from '../translate/canonical.ts';
import type { ClientCounter, VendorCounter } from '../translate/counter.ts';
import type { Simulator, SimulatorOptions } from '../simulators/types.ts';
import type { JsonObject } from '../transforms/path.ts';

/**
 * Token counts a vendor reported (absent fields: not reported), in one meaning whatever the protocol:
 * `inputTokens` includes the cached and cache-write tokens, `outputTokens` the reasoning tokens (so
 * pricing takes cached and cache-write tokens out of the input before pricing them apart).
 */
export interface Usage extends CanonicalUsage {
  /** Seconds of audio the vendor says it processed (a transcription's duration), priced per `audio_second`. */
  audioSeconds?: number;
}

/** One HTTP request to a vendor. */
export interface VendorRequest {
  method: 'GET' | 'POST' | 'DELETE';
  /** Path (and query) relative to the vendor's base URL, e.g. `/chat/completions`. */
  path: string;
  /** Request headers; the call adds the vendor's auth to this object (pass a fresh one). */
  headers?: Record<string, string>;
  body?: string | Buffer | Readable;
}

/** One generated image as the spec answers it (`url` or `b64_json`, optional `revised_prompt`). */
export interface ImageDatum {
  url?: string;
  b64_json?: string;
  revised_prompt?: string;
}

/** Where an asynchronous image task stands after one lookup. */
export type ImageTaskState = { done: false } | { done: true; data: ImageDatum[] };

/**
 * The wire knowledge of a vendor whose images come from asynchronous tasks (create, then poll). It lives
 * in the protocol's folder; the create/poll loop is written once in `images/task-backend.ts`.
 */
export interface ImageTaskProtocol {
  /** Backoff between lookups (the vendor's query limits decide it). */
  poll: { firstDelayMs: number; factor: number; maxDelayMs: number };
  /** The request creating a task for a vendor body in the model's shape. */
  createRequest(body: JsonObject): VendorRequest;
  /** The task id of a create answer, or undefined when there is none. */
  readTaskId(json: unknown): string | undefined;
  /** The request looking a task up. */
  lookupRequest(taskId: string): VendorRequest;
  /** Reads a lookup answer: still running, or ended with images; throws the GatewayError of a failed task. */
  readTask(json: unknown, vendor: VendorEntry, taskId: string): ImageTaskState;
}

/** A vendor endpoint an operation is forwarded to unchanged (apart from the model name). */
export interface PassthroughEndpoint {
  method: 'GET' | 'POST' | 'DELETE';
  /** Path relative to the vendor base URL; `{model}` is replaced by the upstream model name,
   *  other `{param}`s by the route's path parameters. */
  path: string;
  /** Where the model name travels to the vendor: rewritten in the body (JSON, or an upload's form field), in the path, or nowhere. */
  model: 'body' | 'path' | 'none';
  /** The vendor charges nothing for this call (token counting): the request is charged zero tokens, not an estimate. */
  free?: true;
}

/** A chat-like operation of a client style that translation serves on the vendors of other protocols. */
export interface ClientOperation {
  adapter: ClientAdapter;
  /** Streaming decided by the route (true or false), not by the body (absent). */
  stream?: boolean;
  /**
   * The gateway keeps this operation's state (the Responses API's stored answers) for vendors that keep
   * none: translated calls go through the state keeper, and so do same-protocol calls whose YAML asks it.
   */
  gatewayState?: true;
}

/**
 * The protocol's simulated vendor (a real local HTTP server speaking its wire format): the key it accepts
 * unless started with another, and its start function, loaded on demand so that a gateway serving real
 * vendors never loads a simulator.
 */
export interface SimulatorEntry<S extends Simulator = Simulator> {
  key: string;
  load(): Promise<(options: SimulatorOptions) => Promise<S>>;
}

/**
 * A protocol's fragment of the config schema (schemas/gateway.schema.json is composed from the base
 * schema and these at build time): JSON Schema of the vendor fields and auth kinds only its vendors use.
 */
export interface ConfigSchemaFragment {
  /** Fields of a vendor entry (`vendors.<name>.<field>`). */
  vendorProperties?: Record<string, object>;
  /** Auth kinds, by their one key (`auth: { <kind>: ... }`): allowed on this protocol's vendors only. */
  authKinds?: Record<string, object>;
  /**
   * Request facts this protocol reads (`request.<field>` of a vendor or model), beside the shared ones;
   * `gateway check` refuses them where no vendor of the protocol is reached.
   */
  requestFactProperties?: Record<string, object>;
}

/** A client-style operation that no translation can serve: the 400 it is answered with. */
export interface RefusedOperation {
  message: string;
  param: string;
}

/**
 * What the gateway knows about one wire protocol: its wire facts, its translation and, when it is also a
 * client style, the style's chat-like operations. One folder per protocol in `src/protocols/<name>/`,
 * listed in `src/protocols/index.ts`: the only code that holds vendor knowledge.
 */
export interface ProtocolAdapter<S extends Simulator = Simulator> {
  protocol: Protocol;
  /** The caller style that speaks this protocol natively (none for envelope-only protocols). */
  style?: Style;
  /** Operations forwarded byte-for-byte when the caller's style is `style`. */
  passthrough: Partial<Record<Operation, PassthroughEndpoint>>;
  /** Request headers (lowercase) a client may send that are forwarded to this protocol's vendors. */
  requestHeaders: readonly string[];
  /**
   * Reads token usage from a parsed response body or one parsed stream event. It never throws, whatever JSON
   * the vendor sent: a count that is not a finite number is no count.
   */
  readUsage(json: any): Usage | undefined;
  /** Names of the JSON fields holding usage (answers and stream events), so usage is found without a full parse. */
  usageFields: readonly string[];
  /** Names of the JSON fields holding a string finish reason (per choice or candidate), found the same way. */
  finishReasonFields?: readonly string[];
  /** Reads a vendor error body (parsed JSON, or the text when it was not JSON); status 0 inside a stream. */
  readError(status: number, body: unknown, headers?: Record<string, string | string[] | undefined>): VendorError;
  /**
   * For a vendor whose auth is `signed`: the signer made from its credentials in `env` (read when the
   * snapshot is built: start and reload), or undefined when one of them is unset.
   */
  createSigner?(vendor: VendorEntry, env: NodeJS.ProcessEnv): VendorSigner | undefined;
  /**
   * For streams that report usage only on request: the request bytes asking for it (`body` is the parsed
   * form of `raw`), or undefined when the client already asked or the protocol always reports it. The
   * extra events are then removed by `isUsageOnlyEvent` before the client sees them.
   */
  askForStreamUsage?(op: Operation, body: any, raw: Buffer): Buffer | string | undefined;
  /** True for a stream event that only carries the usage the gateway asked for. */
  isUsageOnlyEvent?(json: any): boolean;
  /**
   * Whether, once usage is asked for, every other event carries its usage field as `null` (OpenAI's
   * `"usage":null`, absent when the client did not ask): the gateway then removes those fields with the
   * usage-only events, so the client gets the bytes it would have had without the gateway's ask.
   */
  askedUsageLeavesNull?: boolean;
  /** Images generated through asynchronous tasks (vendors without a synchronous images endpoint). */
  imageTasks?: ImageTaskProtocol;
  /**
   * What the protocol's own API enforces, before the vendor's and the model's `request:` in YAML
   * (translate/request-facts.ts). A protocol whose facts name `maxTokensField` lets YAML choose that field.
   */
  requestFacts: RequestFacts;
  /** The vendor side of chat translation (absent: no client style's chat is translated to this protocol). */
  chat?: VendorAdapter;
  /** For a client style: its chat-like operations that translation serves on other protocols' vendors. */
  clients?: Partial<Record<Operation, ClientOperation>>;
  /** For a client style: operations refused with a 400 when the vendor speaks another protocol. */
  refusedWhenTranslated?: Partial<Record<Operation, RefusedOperation>>;
  /** For a client style: how its count-tokens requests are read and answered. */
  countClient?: ClientCounter;
  /** How the protocol's vendors count tokens exactly (absent: the gateway estimates). */
  counter?: VendorCounter;
  /** Its fragment of the config schema (vendor fields, auth kinds), when it has fields of its own. */
  configSchema?: ConfigSchemaFragment;
  /** The simulated vendor of `--simulate`, the tests and the benchmark (src/protocols/<name>/simulator/). */
  simulator: SimulatorEntry<S>;
}

/** A vendor request about to be sent, as a signer sees it. */
export interface SignableRequest {
  method: string;
  /** `https://host[:port]` of the vendor. */
  origin: string;
  /** Path and query as sent. */
  path: string;
  headers: Record<string, string>;
  body?: string | Buffer;
}

/** Signs one vendor request: resolves with the headers to add to it. */
export type VendorSigner = (request: SignableRequest) => Promise<Record<string, string>>;
