import type { VendorEntry } from '../config/types.ts';
import type { OpCall, Usage, VendorRequest } from '../runtime/types.ts';
import type { JsonObject } from '../transforms/path.ts';

/** The two request shapes of the spec: A (`prompt`, `size` WxH) and B (`input`/`parameters`, `size` W*H). */
export type ImageShapeId = 'a' | 'b';

/** How the client wants the images: links or inline base64. */
export type ResponseFormat = 'url' | 'b64_json';

/** One generated image as the spec answers it (`url` or `b64_json`, optional `revised_prompt`). */
export interface ImageDatum {
  url?: string;
  b64_json?: string;
  revised_prompt?: string;
}

/** What one vendor call produced. */
export interface ImageBatch {
  /** Unix seconds. */
  created: number;
  data: ImageDatum[];
  /** Other top-level fields of the vendor's answer worth keeping (e.g. `output_format`). */
  extras: JsonObject;
  usage?: Usage;
  /** The vendor's own usage object, returned to the client as it came (single calls only). */
  rawUsage?: unknown;
}

/** The parts of a request that matter after validation. */
export interface ImageRequest {
  /** The body in the model's own shape, with the upstream model name, ready for the vendor. */
  vendorBody: JsonObject;
  /** Images asked for (the spec's default 1 when absent). */
  n: number;
  /** Whether the client sent `n` (the vendor's default is kept otherwise, unless the model sets default_n). */
  nSent: boolean;
  /** Where the client put `n` (`n` or `parameters.n`), for error messages. */
  nParam: string;
  responseFormat: ResponseFormat;
}

/** Generates images at a vendor of one protocol. */
export interface ImageBackend {
  /** The vendor answers URLs only: `b64_json` needs the gateway to fetch the images. */
  urlOnly: boolean;
  /** Calls the vendor once for `body` (n included); `signal` ends polling early. */
  generate(call: OpCall, body: JsonObject, signal: AbortSignal): Promise<ImageBatch>;
}

/** Where an asynchronous image task stands after one lookup. */
export type ImageTaskState = { done: false } | { done: true; data: ImageDatum[] };

/**
 * The wire knowledge of a vendor whose images come from asynchronous tasks (create, then poll). It lives
 * in the protocol's adapter file; the create/poll loop is written once in `task-backend.ts`.
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
