/**
 * The compiled configuration: what `scripts/build.ts` emits into `generated/` and what the runtime
 * reads. Plain JSON data only (no functions, no secrets): secrets are named by environment variable
 * and resolved when the gateway starts.
 */

import type {
  SchemaBudget,
  SchemaGatewayFile,
  SchemaLimits,
  SchemaModel,
  SchemaRequestFacts,
  SchemaResponsesState,
  SchemaRoute,
} from '../../generated/config-types.ts';
import type { Protocol, Style } from '../../generated/protocols.ts';
import type { TransformOp } from '../transforms/op-kind.ts';

/**
 * `Protocol` (a vendor's wire protocol) and `Style` (a caller's protocol style): the config schema's enums,
 * which the build fills from the registries in src/protocols/.
 */
export type { Protocol, Style };

/** gateway.yaml as the config schema describes it (before compiling): the compiler's input. */
export type { SchemaGatewayFile as GatewayFile };

/** One operation name from the config schema's `op` enum (listed in src/config/operations.ts). */
export type Operation = SchemaRoute['op'];

/** One op of a declarative transform, as the compiled config holds it (its kinds are defined in src/transforms). */
export type { TransformOp };

/** Where a route finds the model id of a request. */
export interface ModelSource {
  /** body: JSON body field; path: path parameter; multipart: form field; query: query parameter;
   *  task: the signed task id in the path (video lookups); none: no model (listings). */
  from: 'body' | 'path' | 'multipart' | 'query' | 'task' | 'none';
  /** Field, parameter or form-field name (empty for `none`). */
  name: string;
}

/** A compiled route: method + path template → operation in a caller style. */
export interface RouteEntry {
  method: SchemaRoute['method'];
  /** Path template with `{param}` segments, e.g. `/v1beta/models/{model}:generateContent`. */
  path: string;
  style: Style;
  op: Operation;
  model: ModelSource;
  /** How the request body is read. */
  body: 'json' | 'multipart' | 'none';
  /** Request schema id (file name under `schemas/endpoints/` without `.json`), if any. */
  schema?: string;
  /**
   * Set on a JSON route that also takes `multipart/form-data` (OpenAI's SDK uploads video references so):
   * the model is then the form field named like the JSON field, and the schema is not applied.
   */
  multipart?: true;
  /** Set on `op: native` routes: the vendor endpoint this route forwards to. */
  native?: NativeEntry;
}

/**
 * A vendor-native entry: one of a vendor's own endpoints forwarded under a gateway path (`op: native`),
 * with the gateway's vendor credential. Everything not declared here (headers, query parameters) stays behind.
 */
export interface NativeEntry {
  /** The entry's name: what `keys[].native` grants when the request names no model. */
  name: string;
  vendor: string;
  /** Path template at the vendor, relative to its base URL; each `{param}` comes from the gateway path. */
  path: string;
  /** Client request headers passed to the vendor (lower case); every other header stays behind. */
  requestHeaders: string[];
  /** Vendor response headers passed to the client besides `content-type` (lower case). */
  responseHeaders: string[];
  /** Query parameters passed to the vendor. */
  query: string[];
  /** Dot path of the vendor's task id in JSON answers, replaced by a signed id bound to the key. */
  taskId?: string[];
}

/** A secret named by environment variable (never the value). */
export interface EnvRef {
  env: string;
}

/** How the gateway authenticates to a vendor. */
export type VendorAuth =
  | { kind: 'bearer'; env: string }
  | { kind: 'header'; header: string; env: string }
  | { kind: 'query'; param: string; env: string }
  /** Requests signed by the protocol's signer (`createSigner`): `env` holds the secret, `idEnv` its key id. */
  | { kind: 'signed'; scheme: 'sigv4'; env: string; idEnv: string; tokenEnv?: string }
  | { kind: 'none' };

/** Request-rate, token-rate and concurrency limits of a client key. */
export type LimitSpec = SchemaLimits;

/** A key's spend budget: `usd` per UTC `period`; `reserveUsd` caps what one request reserves. */
export interface BudgetSpec {
  usd: number;
  period: SchemaBudget['period'];
  reserveUsd?: number;
}

/**
 * USD prices of a model: `input`/`output` (and the optional rates) per million tokens, `image` per image,
 * `audioSecond` per second of audio. Input counts include cached and cache-write tokens, output counts
 * include reasoning tokens; an absent rate falls back to the input or output price.
 */
export interface ModelPrice {
  input: number;
  output: number;
  cachedInput?: number;
  cacheWrite?: number;
  reasoning?: number;
  image?: number;
  audioSecond?: number;
}

/** A client key: its secret (env var or sha256 hex digest), allowed model globs and limits. */
export interface KeyEntry {
  name: string;
  secret: { env: string } | { sha256: string };
  /** Glob patterns (`*` wildcard) of model ids this key may use. */
  models: string[];
  limits: LimitSpec;
  /** Spend allowed per UTC period (absent: no budget). */
  budget?: BudgetSpec;
  /** Reject fields that cannot be translated instead of dropping them. */
  strict: boolean;
  /** Names of the vendor-native entries this key may call without naming a model (absent: none). */
  native?: string[];
  /** An admin key: opens the admin API only, never a model (absent: a client key). */
  admin?: true;
  /** `{ store: false }`: responses created with this key are never kept by the gateway. */
  responses?: ResponsesPolicy;
}

/** Whether the gateway may keep Responses API state (absent: it may). */
export interface ResponsesPolicy {
  store: boolean;
}

/**
 * Who keeps the Responses state of an OpenAI-protocol vendor's responses: `vendor` (the default: requests
 * pass through) or `gateway` (a compatible vendor that keeps none or has no Responses API: the gateway
 * keeps it and sends the vendor chat completions, as for Anthropic and Gemini vendors).
 */
export type ResponsesStateKeeper = SchemaResponsesState;

/** A model's Responses settings: whether responses may be kept, and who keeps them (absent: its vendor's say). */
export interface ModelResponsesPolicy extends ResponsesPolicy {
  state?: ResponsesStateKeeper;
}

/** A vendor: protocol, origin and how to call it. */
export interface VendorEntry {
  name: string;
  protocol: Protocol;
  /** Base URL without trailing slash, e.g. `https://api.openai.com/v1`. */
  baseUrl: string;
  auth: VendorAuth;
  /** The vendor's region, for protocols whose requests are signed per region. */
  region?: string;
  /** Extra headers added to every request (e.g. `anthropic-version`). */
  headers: Record<string, string>;
  /** Wait for response headers / silence between body bytes, in milliseconds. */
  timeouts: { headersMs: number; bodyMs: number };
  /** Keep-alive connections per origin. */
  connections: number;
  /** Optional outbound HTTP proxy URL and CA bundle file. */
  proxy?: string;
  caFile?: string;
  /** Vendor error codes that mean a content-policy violation (mapped to `content_policy_violation`). */
  policyErrorCodes: string[];
  /** What the vendor accepts in a translated chat request, over its protocol's defaults. */
  request?: RequestFacts;
  /** `{ state: gateway }`: the gateway keeps Responses state for this OpenAI-protocol vendor (absent: the vendor does). */
  responses?: { state: ResponsesStateKeeper };
}

/** Inclusive bounds of a numeric request parameter. */
export interface NumberRange {
  min?: number;
  max?: number;
}

/**
 * Request facts (issue 14), declared on a vendor or model in YAML (`request:`) over defaults per protocol
 * (src/translate/request-facts.ts): which field carries the output-token limit, which optional fields
 * the vendor rejects, and the parameter ranges it enforces.
 */
export interface RequestFacts {
  maxTokensField?: SchemaRequestFacts['max_tokens_field'];
  /** Vendor request fields dropped before the call (listed in `x-gateway-dropped-fields`). */
  unsupportedFields?: string[];
  ranges?: { temperature?: NumberRange; topP?: NumberRange };
  /** The reasoning request shape the model takes, by a name its protocol defines (`request.reasoning`). */
  reasoning?: string;
}

/** One concrete place a model is served: a vendor and the model name it knows. */
export interface TargetEntry {
  vendor: string;
  upstream: string;
  weight: number;
}

/** A model's `images:` section in gateway.yaml. */
type ImageSection = NonNullable<SchemaModel['images']>;

/** Image-generation options of a model (see issue 3). */
export interface ImageOptions {
  /** `openai` = shape A (`size` WxH); `envelope` = shape B (`input`/`parameters`, `size` W*H). */
  shape: NonNullable<ImageSection['shape']>;
  maxN?: number;
  /** Split n > maxN into parallel upstream calls instead of answering 400. */
  splitN: boolean;
  sizes?: string[];
  qualities?: string[];
  styles?: string[];
  /** What happens to `style` on a model that takes none. */
  styleUnsupported: NonNullable<ImageSection['style_unsupported']>;
  responseFormats?: string[];
  /** Re-host vendor URLs for 24 hours. */
  rehost: boolean;
  /** Fetch URLs and answer base64 when `b64_json` is asked for. */
  b64FromUrl: boolean;
  /** The vendor answers base64 only. */
  b64Only: boolean;
  /** Name of a transform (under `transforms:`) applied to shape-A bodies. */
  transform?: string;
  /** Default sent to the vendor when the client sent no n (vendor default contradicts the spec). */
  defaultN?: number;
  pollTimeoutMs: number;
}

/** Chat options of a model (see issue 4). */
export interface ChatOptions {
  /** max_tokens sent when the target protocol requires it and the client sent none. */
  defaultMaxTokens: number;
  strict: boolean;
  /** `auto`: translated requests to a protocol with prompt-cache breakpoints get them placed (issue 14). */
  cache?: 'auto';
  /** Reasoning budget (tokens) per effort level, when YAML sets one (default in translate/reasoning-budget.ts). */
  reasoning?: ReasoningBudgets;
}

/** Reasoning budget in tokens per effort level (`models.<id>.chat.reasoning`). */
export interface ReasoningBudgets {
  low: number;
  medium: number;
  high: number;
}

/** Retry and fallback policy of a model (see issue 6). */
export interface RoutingPolicy {
  retries: number;
  fallbackOn: string[];
  attemptTimeoutMs?: number;
  deadlineMs?: number;
  cooldownAfter: number;
  cooldownMs: number;
}

/** A model as clients name it, and where it is served. */
export interface ModelEntry {
  id: string;
  /** Weighted primary targets (one in the common case). */
  targets: TargetEntry[];
  /** Ordered fallback targets. */
  fallback: TargetEntry[];
  routing: RoutingPolicy;
  images?: ImageOptions;
  chat: ChatOptions;
  /** Request facts of this model, over its vendor's. */
  request?: RequestFacts;
  /** Display name and owner used by the model listings. */
  ownedBy: string;
  /** `{ store: false }`: responses created through this model are never kept; `state`: who keeps them. */
  responses?: ModelResponsesPolicy;
  /** What the model costs (absent: no price, no cost in the usage event). */
  price?: ModelPrice;
}


/** Server settings. */
export interface ServerSettings {
  host: string;
  port: number;
  bodyLimitBytes: number;
  /** Deadline for the whole request body, counted from the end of the headers (408 past it). */
  bodyTimeoutMs: number;
  tls?: { certFile: string; keyFile: string };
  /** Signs task ids handed to clients (env var name). */
  taskSecret: EnvRef;
  /** Where re-hosted images are kept. */
  imageDir: string;
  /** Public base URL used in re-hosted image URLs (defaults to the request's host). */
  publicUrl?: string;
  /** Shared store for limits and cooldowns: `memory` or a `redis://` URL from env. */
  store: { kind: 'memory' } | { kind: 'redis'; env: string; failOpen: boolean };
  /** Default limits of keys that set none. */
  defaultLimits: LimitSpec;
  /** The admin listener (/metrics, /healthz, /readyz, /admin/); absent: off. */
  admin?: { host: string; port: number };
  /** The console is served on the admin listener (absent: off). */
  console?: true;
  /** The client address is read from `X-Forwarded-For` (absent: the socket's address). */
  trustProxy?: true;
  /** Responses API state kept by the gateway: lifetime and the largest response kept (JSON bytes). */
  responses: { ttlMs: number; maxBytes: number };
  /** Length of the sliding rpm and tpm windows (default one minute). */
  limitWindowMs: number;
  /** Where the memory store keeps budgets across restarts (relative to the config file). */
  budgetFile: string;
}

/** The whole compiled configuration. Sorted and stable so generated output is deterministic. */
export interface CompiledConfig {
  server: ServerSettings;
  keys: KeyEntry[];
  vendors: Record<string, VendorEntry>;
  models: Record<string, ModelEntry>;
  routes: RouteEntry[];
  transforms: Record<string, TransformOp[]>;
}
