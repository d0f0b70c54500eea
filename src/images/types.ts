import type { ImageDatum } from '../protocols/types.ts';
import type { OpCall, Usage } from '../runtime/types.ts';
import type { JsonObject } from '../transforms/path.ts';

export type { ImageDatum, ImageTaskProtocol, ImageTaskState } from '../protocols/types.ts';

/** The two request shapes of the spec: A (`prompt`, `size` WxH) and B (`input`/`parameters`, `size` W*H). */
export type ImageShapeId = 'a' | 'b';

/** How the client wants the images: links or inline base64. */
export type ResponseFormat = 'url' | 'b64_json';

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
