import type { IncomingHttpHeaders } from 'node:http';

/** The fields of a gateway error that a style's error body may show (the GatewayError class has them all). */
export interface StyleError {
  status: number;
  code: string;
  message: string;
  /** The request field the error is about (OpenAI `param`). */
  param?: string;
  /** Overrides the per-style error type derived from the status. */
  type?: string;
}

/** A configured model as a listing shows it. */
export interface ListedModel {
  id: string;
  ownedBy: string;
}

/** One HTTP request a client sends: path (with query), headers and JSON body. */
export interface ClientRequest {
  path: string;
  headers: Record<string, string>;
  body: unknown;
}

/** An OpenAPI security scheme (`components.securitySchemes` entry). */
export type SecurityScheme = Record<string, string>;

/**
 * What the gateway knows about one client style: how its official SDK presents its key, how it
 * expects errors and model listings to look. One object per style in `src/protocols/<name>/style.ts`,
 * listed in `src/protocols/styles.ts`. Pure data and functions: no I/O, no runtime import.
 */
export interface StyleFacts {
  /** Where the SDK sends its key, quoted by the 401 of a request that sent none. */
  keyHint: string;
  /** The key from where this SDK sends it besides `Authorization: Bearer` (which every style accepts). */
  readKey?(headers: IncomingHttpHeaders, readQuery: () => URLSearchParams): string | undefined;
  /**
   * A request header only this style's SDK sends (lowercase): a request carrying it has its key read this
   * style's way on any route, and is answered a model listing in this style on the default style's routes.
   */
  sdkHeader?: string;
  /** The WebSocket subprotocol prefix a browser client of this style carries its key in. */
  subprotocolKeyPrefix?: string;
  /** The JSON error body of `error`. */
  writeErrorBody(error: StyleError, requestId: string): object;
  /** The SSE frame that ends an already-started stream with the error body `json`. */
  writeStreamErrorFrame(json: string): string;
  /** The body of a model listing (`query`: the request's query string, for paging). */
  writeModelList(models: ListedModel[], query: URLSearchParams): object;
  /** The body describing one model. */
  writeModel(model: ListedModel): object;
  /** The configured model id a client's model name means (e.g. without a `models/` prefix). */
  readModelName?(name: string): string;
  /** The OpenAPI security schemes of the style's routes, by scheme name, in the order the SDK tries them. */
  securitySchemes: Record<string, SecurityScheme>;
  /** The request this style's SDK sends for one user turn to `model` with the key `secret` (the console's playground). */
  writeChatTurn(model: string, prompt: string, stream: boolean, secret: string): ClientRequest;
}
