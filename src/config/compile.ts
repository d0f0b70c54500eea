import type {
  BudgetSpec,
  CompiledConfig,
  ImageOptions,
  KeyEntry,
  ModelEntry,
  ModelPrice,
  ModelSource,
  NativeEntry,
  RequestFacts,
  RouteEntry,
  TargetEntry,
  VendorAuth,
  VendorEntry,
} from './types.ts';
import type {
  SchemaBudget,
  SchemaGatewayFile,
  SchemaKey,
  SchemaModel,
  SchemaPrice,
  SchemaRequestFacts,
  SchemaRoute,
  SchemaServer,
  SchemaTargetRef,
  SchemaVendor,
} from '../../generated/config-types.ts';
import { readTransformOps } from '../transforms/index.ts';
import { envName, parseDuration, parseSize } from './units.ts';

const DEFAULT_TIMEOUT = '600s';

function sortedRecord<T>(entries: [string, T][]): Record<string, T> {
  return Object.fromEntries(entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

function compileAuth(auth: SchemaVendor['auth']): VendorAuth {
  if (auth === undefined || auth === 'none') return { kind: 'none' };
  if ('bearer' in auth) return { kind: 'bearer', env: envName(auth.bearer) };
  if ('sigv4' in auth) {
    const { access_key_id: id, secret_access_key: secret, session_token: token } = auth.sigv4;
    return { kind: 'signed', scheme: 'sigv4', env: envName(secret), idEnv: envName(id), ...(token ? { tokenEnv: envName(token) } : {}) };
  }
  if ('header' in auth) return { kind: 'header', header: auth.header.toLowerCase(), env: envName(auth.value) };
  return { kind: 'query', param: auth.query, env: envName(auth.value) };
}

function compileVendor(name: string, raw: SchemaVendor): VendorEntry {
  const both = raw.timeout ?? DEFAULT_TIMEOUT;
  const headers = sortedRecord(Object.entries(raw.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v]));
  return {
    name,
    protocol: raw.protocol,
    baseUrl: String(raw.base_url).replace(/\/+$/, ''),
    auth: compileAuth(raw.auth),
    ...(raw.region ? { region: raw.region } : {}),
    headers,
    timeouts: {
      headersMs: parseDuration(raw.headers_timeout ?? both),
      bodyMs: parseDuration(raw.idle_timeout ?? both),
    },
    connections: raw.connections ?? 128,
    ...(raw.proxy ? { proxy: raw.proxy } : {}),
    ...(raw.ca_file ? { caFile: raw.ca_file } : {}),
    policyErrorCodes: [...(raw.policy_error_codes ?? [])].sort(),
    ...(raw.request ? { request: compileRequestFacts(raw.request) } : {}),
    ...(raw.responses?.state ? { responses: { state: raw.responses.state } } : {}),
  };
}

/** A `request:` section (vendor or model) as RequestFacts; absent parts stay absent. */
function compileRequestFacts(raw: SchemaRequestFacts): RequestFacts {
  const facts: RequestFacts = {};
  if (raw.max_tokens_field) facts.maxTokensField = raw.max_tokens_field;
  if (raw.reasoning) facts.reasoning = raw.reasoning;
  if (raw.unsupported_fields) facts.unsupportedFields = [...raw.unsupported_fields].sort();
  if (raw.ranges) {
    const ranges: NonNullable<RequestFacts['ranges']> = {};
    if (raw.ranges.temperature) ranges.temperature = { ...raw.ranges.temperature };
    if (raw.ranges.top_p) ranges.topP = { ...raw.ranges.top_p };
    facts.ranges = ranges;
  }
  return facts;
}

/** A target of model `ownId`: a vendor's model (named by `upstream` or `model`, else `ownId`) or another model's. */
function compileTarget(ref: SchemaTargetRef, models: Record<string, SchemaModel>, ownId: string): TargetEntry {
  const weight = typeof ref === 'object' && ref.weight !== undefined ? ref.weight : 1;
  if (typeof ref === 'object' && 'vendor' in ref) return { vendor: ref.vendor, upstream: ref.upstream ?? ref.model ?? ownId, weight };
  const id = typeof ref === 'string' ? ref : ref.model;
  const model = models[id]!;
  // check.ts: the model named has a vendor of its own.
  return { vendor: model.vendor!, upstream: model.upstream ?? id, weight };
}

function compileImages(raw: NonNullable<SchemaModel['images']>): ImageOptions {
  return {
    shape: raw.shape ?? 'openai',
    ...(raw.max_n !== undefined ? { maxN: raw.max_n } : {}),
    splitN: raw.split_n ?? false,
    ...(raw.sizes ? { sizes: raw.sizes } : {}),
    ...(raw.qualities ? { qualities: raw.qualities } : {}),
    ...(raw.styles ? { styles: raw.styles } : {}),
    styleUnsupported: raw.style_unsupported ?? 'reject',
    ...(raw.response_formats ? { responseFormats: raw.response_formats } : {}),
    rehost: raw.rehost ?? false,
    b64FromUrl: raw.b64_from_url ?? true,
    b64Only: raw.b64_only ?? false,
    ...(raw.transform ? { transform: raw.transform } : {}),
    ...(raw.default_n !== undefined ? { defaultN: raw.default_n } : {}),
    pollTimeoutMs: parseDuration(raw.poll_timeout ?? '300s'),
  };
}

function compileModel(id: string, raw: SchemaModel, models: Record<string, SchemaModel>): ModelEntry {
  // check.ts: a model has either targets or a vendor.
  const targets: TargetEntry[] = raw.targets
    ? raw.targets.map((ref) => compileTarget(ref, models, id))
    : [{ vendor: raw.vendor!, upstream: raw.upstream ?? id, weight: 1 }];
  const routing = raw.routing ?? {};
  const entry: ModelEntry = {
    id,
    targets,
    fallback: (raw.fallback ?? []).map((ref) => compileTarget(ref, models, id)),
    routing: {
      retries: routing.retries ?? 0,
      fallbackOn: routing.fallback_on ?? ['429', '5xx', 'timeout', 'connect'],
      ...(routing.attempt_timeout ? { attemptTimeoutMs: parseDuration(routing.attempt_timeout) } : {}),
      ...(routing.deadline ? { deadlineMs: parseDuration(routing.deadline) } : {}),
      cooldownAfter: routing.cooldown_after ?? 3,
      cooldownMs: parseDuration(routing.cooldown ?? '30s'),
    },
    chat: { defaultMaxTokens: raw.chat?.default_max_tokens ?? 4096, strict: raw.chat?.strict ?? false, ...(raw.chat?.cache === 'auto' ? { cache: 'auto' } : {}), ...compileReasoning(raw.chat?.reasoning) },
    ownedBy: raw.owned_by ?? targets[0].vendor ?? 'gateway',
    ...(raw.request ? { request: compileRequestFacts(raw.request) } : {}),
  };
  if (raw.price) entry.price = compilePrice(raw.price);
  if (raw.images) entry.images = compileImages(raw.images);
  if (raw.responses) entry.responses = { store: raw.responses.store ?? true, ...(raw.responses.state ? { state: raw.responses.state } : {}) };
  return entry;
}

function compilePrice(raw: SchemaPrice): ModelPrice {
  return {
    input: raw.input,
    output: raw.output,
    ...(raw.cached_input !== undefined ? { cachedInput: raw.cached_input } : {}),
    ...(raw.cache_write !== undefined ? { cacheWrite: raw.cache_write } : {}),
    ...(raw.reasoning !== undefined ? { reasoning: raw.reasoning } : {}),
    ...(raw.image !== undefined ? { image: raw.image } : {}),
    ...(raw.audio_second !== undefined ? { audioSecond: raw.audio_second } : {}),
  };
}

function compileBudget(raw: SchemaBudget): BudgetSpec {
  return { usd: raw.usd, period: raw.period, ...(raw.reserve_usd !== undefined ? { reserveUsd: raw.reserve_usd } : {}) };
}

function compileModelSource(text: string | undefined): ModelSource {
  if (!text || text === 'none') return { from: 'none', name: '' };
  if (text === 'task') return { from: 'task', name: 'task_id' };
  const [from, name] = text.split('.') as [ModelSource['from'], string];
  return { from, name };
}

function compileRoute(raw: SchemaRoute): RouteEntry {
  const model = compileModelSource(raw.model);
  const body: RouteEntry['body'] = model.from === 'multipart' ? 'multipart' : raw.method === 'GET' || raw.method === 'DELETE' ? 'none' : 'json';
  return {
    method: raw.method,
    path: raw.path,
    style: raw.style,
    op: raw.op,
    model,
    body,
    ...(raw.schema ? { schema: raw.schema } : {}),
    ...(raw.multipart === true && body === 'json' ? { multipart: true as const } : {}),
    ...(raw.native ? { native: compileNative(raw.native) } : {}),
  };
}

function compileNative(raw: NonNullable<SchemaRoute['native']>): NativeEntry {
  const lower = (names: string[] | undefined) => [...new Set((names ?? []).map((name) => name.toLowerCase()))].sort();
  return {
    name: raw.name,
    vendor: raw.vendor,
    path: raw.path,
    requestHeaders: lower(raw.request_headers),
    responseHeaders: lower(raw.response_headers),
    query: [...new Set(raw.query ?? [])].sort(),
    ...(raw.task_id ? { taskId: String(raw.task_id).split('.') } : {}),
  };
}

/** The admin listener's port when `server.admin` names none. */
export const DEFAULT_ADMIN_PORT = 8788;

function compileKey(raw: SchemaKey): KeyEntry {
  return {
    name: raw.name,
    // The schema: exactly one of key and sha256.
    secret: raw.key ? { env: envName(raw.key) } : { sha256: raw.sha256! },
    models: raw.models ?? [],
    limits: raw.limits ?? {},
    ...(raw.budget ? { budget: compileBudget(raw.budget) } : {}),
    strict: raw.strict ?? false,
    ...(raw.native?.length ? { native: [...raw.native].sort() } : {}),
    ...(raw.admin === true ? { admin: true } : {}),
    ...(raw.responses ? { responses: { store: raw.responses.store ?? true } } : {}),
  };
}

/** Turns a checked config value (see check.ts) into the compiled, sorted, secret-free tables. */
export function compileConfig(value: unknown): CompiledConfig {
  const raw = value as SchemaGatewayFile;
  const server: SchemaServer = raw.server ?? {};
  const vendors = raw.vendors ?? {};
  const models = raw.models ?? {};
  const store = server.store ?? 'memory';
  return {
    server: {
      host: server.host ?? '0.0.0.0',
      port: server.port ?? 8787,
      bodyLimitBytes: parseSize(server.body_limit ?? '25mb'),
      bodyTimeoutMs: parseDuration(server.body_timeout ?? '60s'),
      ...(server.tls ? { tls: { certFile: server.tls.cert, keyFile: server.tls.key } } : {}),
      taskSecret: { env: envName(server.task_secret ?? 'env:GATEWAY_TASK_SECRET') },
      imageDir: server.image_dir ?? '.gateway-images',
      ...(server.public_url ? { publicUrl: String(server.public_url).replace(/\/+$/, '') } : {}),
      store:
        store === 'memory'
          ? { kind: 'memory' }
          : { kind: 'redis', env: envName(store), failOpen: (server.store_failure ?? 'fail-open') === 'fail-open' },
      defaultLimits: server.limits ?? {},
      ...(server.admin ? { admin: { host: server.admin.host ?? '127.0.0.1', port: server.admin.port ?? DEFAULT_ADMIN_PORT } } : {}),
      ...(server.console === true && server.admin ? { console: true } : {}),
      ...(server.trust_proxy === true ? { trustProxy: true } : {}),
      responses: {
        ttlMs: parseDuration(server.responses?.ttl ?? '30d'),
        maxBytes: parseSize(server.responses?.max_size ?? '1mb'),
      },
      limitWindowMs: parseDuration(server.limit_window ?? '60s'),
      budgetFile: server.budget_file ?? '.gateway-budgets.json',
    },
    keys: (raw.keys ?? []).map(compileKey),
    vendors: sortedRecord(Object.entries(vendors).map(([name, v]) => [name, compileVendor(name, v)])),
    models: sortedRecord(Object.entries(models).map(([id, m]) => [id, compileModel(id, m, models)])),
    routes: (raw.routes ?? []).map(compileRoute),
    transforms: sortedRecord(
      Object.entries(raw.transforms ?? {}).map(([name, ops]) => [name, readTransformOps(ops)]),
    ),
  };
}

/** `chat.reasoning` with the default budget of each level it leaves out (absent: nothing, the default applies). */
function compileReasoning(raw: NonNullable<SchemaModel['chat']>['reasoning']): { reasoning?: { low: number; medium: number; high: number } } {
  if (!raw) return {};
  return { reasoning: { low: raw.low ?? 1024, medium: raw.medium ?? 4096, high: raw.high ?? 16384 } };
}
