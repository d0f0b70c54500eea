import type { Operation, Protocol, Style, VendorEntry } from '../config/types.ts';
import type { Usage } from '../runtime/types.ts';
import type { VendorError } from '../translate/canonical.ts';

/** A vendor endpoint an operation is forwarded to unchanged (apart from the model name). */
export interface PassthroughEndpoint {
  method: 'GET' | 'POST' | 'DELETE';
  /** Path relative to the vendor base URL; `{model}` is replaced by the upstream model name,
   *  other `{param}`s by the route's path parameters. */
  path: string;
  /** Where the model name travels to the vendor: rewritten in the JSON body, in the path, or nowhere. */
  model: 'body' | 'path' | 'none';
  /** The vendor charges nothing for this call (token counting): the request is charged zero tokens, not an estimate. */
  free?: true;
}


/**
 * What the gateway knows about one wire protocol. One file per protocol in `src/protocols/`;
 * this is the only place (with gateway.yaml) that holds vendor knowledge.
 */
export interface ProtocolAdapter {
  protocol: Protocol;
  /** The caller style that speaks this protocol natively (none for envelope-only protocols). */
  style?: Style;
  /** Operations forwarded byte-for-byte when the caller's style is `style`. */
  passthrough: Partial<Record<Operation, PassthroughEndpoint>>;
  /** Request headers (lowercase) a client may send that are forwarded to this protocol's vendors. */
  requestHeaders: readonly string[];
  /** Reads token usage from a parsed response body or one parsed stream event. */
  readUsage(json: any): Usage | undefined;
  /** Names of the JSON fields holding usage (answers and stream events), so usage is found without a full parse. */
  usageFields: readonly string[];
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
