import fc from 'fast-check';
import type { CompiledConfig, Operation, RouteEntry, Style } from '../../src/config/types.ts';
import { FUZZ_CLIENT_KEYS } from './fuzz-gateway.ts';

/** How a fuzz client presents (or fails to present) its key. */
export const AUTH_KINDS = ['bearer', 'x-api-key', 'x-goog-api-key', 'query', 'none', 'wrong-bearer', 'wrong-x-api-key', 'wrong-query', 'limited', 'other-goog', 'malformed'] as const;
export type AuthKind = (typeof AUTH_KINDS)[number];

/** The headers and query parameter that present a key the `kind` way. */
export function presentKey(kind: AuthKind): { headers: [string, string][]; query?: string } {
  const { main, limited, other } = FUZZ_CLIENT_KEYS;
  switch (kind) {
    case 'bearer':
      return { headers: [['authorization', `Bearer ${main}`]] };
    case 'x-api-key':
      return { headers: [['x-api-key', main], ['anthropic-version', '2023-06-01']] };
    case 'x-goog-api-key':
      return { headers: [['x-goog-api-key', main]] };
    case 'query':
      return { headers: [], query: `key=${main}` };
    case 'wrong-bearer':
      return { headers: [['authorization', 'Bearer sk-not-a-configured-key']] };
    case 'wrong-x-api-key':
      return { headers: [['x-api-key', 'sk-ant-wrong']] };
    case 'wrong-query':
      return { headers: [], query: 'key=AIza-wrong' };
    case 'limited':
      return { headers: [['authorization', `Bearer ${limited}`]] };
    case 'other-goog':
      return { headers: [['x-goog-api-key', other]] };
    case 'malformed':
      return { headers: [['authorization', 'Basic Zm9vOmJhcg==']] };
    default:
      return { headers: [] };
  }
}

/** Auth kinds the official SDK of each style uses. */
const OWN_AUTH: Record<Style, AuthKind[]> = { openai: ['bearer'], anthropic: ['x-api-key', 'bearer'], gemini: ['x-goog-api-key', 'query', 'bearer'] };

/** An auth kind for a request in `style`: mostly the style's own (so requests get past auth), else any. */
export function arbitraryAuth(style: Style, kinds: readonly AuthKind[] = AUTH_KINDS): fc.Arbitrary<AuthKind> {
  const own = OWN_AUTH[style].filter((kind) => kinds.includes(kind));
  if (own.length === 0) return fc.constantFrom(...kinds);
  return fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...own) }, { weight: 2, arbitrary: fc.constantFrom(...kinds) });
}

/** Model ids a request may name: every configured model, plus unknown and odd ones. */
export function getModelIds(config: CompiledConfig): string[] {
  return [...Object.keys(config.models), 'no-such-model', 'GPT-4O', 'gpt-4o ', 'gpt-4o/../gpt-4o', '温度-model', 'x'.repeat(3000)];
}

/** Which models of gateway.yaml serve an operation (the rest of the table answers 4xx/501 or a vendor error). */
const OP_MODELS: Partial<Record<Operation, RegExp>> = {
  'images-generations': /^(dall-e|gpt-image|wan)/,
  'images-edits': /^(dall-e-2|gpt-image)/,
  embeddings: /embed/,
  rerank: /rerank/,
  moderations: /moderation/,
  'audio-speech': /tts/,
  'audio-transcriptions': /whisper|transcribe/,
  'audio-translations': /whisper/,
  'videos-create': /sora/,
  realtime: /realtime/,
};
const CHAT_MODELS = /^(gpt-4o|gpt-4o-mini|gpt-5|gpt-3.5-turbo-instruct|claude-|gemini-|qwen-|sim-)/;

/** Model ids for `op`: mostly ones that serve it (hostile vendors included), sometimes any, unknown or odd. */
export function arbitraryModel(config: CompiledConfig, op?: Operation): fc.Arbitrary<string> {
  const all = getModelIds(config);
  const fitting = all.filter((id) => (op && OP_MODELS[op] ? OP_MODELS[op]!.test(id) : CHAT_MODELS.test(id)));
  const hostile = all.filter((id) => id.startsWith(op === 'images-generations' ? 'hostile-dashscope' : 'hostile-'));
  return fc.oneof({ weight: 6, arbitrary: fc.constantFrom(...(fitting.length ? fitting : all)) }, { weight: 1, arbitrary: fc.constantFrom(...all) }, { weight: 1, arbitrary: fc.constantFrom(...hostile) });
}

/** A value of a path parameter: a model id, a random segment, or a hostile escape. */
export function arbitraryParam(config: CompiledConfig, param: string, op?: Operation): fc.Arbitrary<string> {
  const hostile = fc.constantFrom('%FF', '%', '%E0%A4', '%00', '..', '%2F..%2F', '%C0%AE', 'a'.repeat(4000), '%25FF', '');
  const random = fc.string({ unit: 'grapheme-ascii', maxLength: 40 }).map(encodeURIComponent);
  const own = param === 'model' ? arbitraryModel(config, op).map(encodeURIComponent) : fc.constantFrom('video_abc123', 'task.signed.v1');
  return fc.oneof({ weight: 4, arbitrary: own }, { weight: 1, arbitrary: random }, { weight: 2, arbitrary: hostile });
}

/** The route's path template with each `{param}` filled in. */
export function arbitraryRoutePath(config: CompiledConfig, route: RouteEntry): fc.Arbitrary<string> {
  const names = [...route.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
  if (names.length === 0) return fc.constant(route.path);
  return fc.tuple(...names.map((name) => arbitraryParam(config, name, route.op))).map((values) => names.reduce((path, name, i) => path.replace(`{${name}}`, values[i]), route.path));
}

/** Extra query parameters, hostile ones included (`alt=sse`, repeated `key`, bad escapes). */
export function arbitraryQuery(config: CompiledConfig): fc.Arbitrary<string[]> {
  const pair = fc.oneof(
    fc.constantFrom('alt=sse', 'key=', 'key=%FF', '%FF=%FF', '=', '&&', 'model=gpt-4o', 'model=%E0', 'a[b]=c', '?', '#frag'),
    arbitraryModel(config).map((model) => `model=${encodeURIComponent(model)}`),
    fc.tuple(fc.string({ maxLength: 12 }), fc.string({ maxLength: 30 })).map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`),
  );
  return fc.array(pair, { maxLength: 3 });
}

/** The Content-Type of a JSON route: JSON in its spellings (mostly), or a wrong or missing one. */
export const arbitraryContentType = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom('application/json', 'application/json; charset=utf-8', 'Application/JSON') },
  { weight: 1, arbitrary: fc.constantFrom('text/plain', 'multipart/form-data; boundary=x', 'application/x-www-form-urlencoded', 'application/xml', undefined, 'json', '') },
);

/** True for a Content-Type a JSON route must accept. */
export function isJsonContentType(type: string | undefined): boolean {
  return type !== undefined && /^application\/json\s*(;|$)/i.test(type.trim());
}

/** Extra headers any client might send, odd but legal (non-ASCII values are sent as UTF-8 bytes). */
export const arbitraryExtraHeaders: fc.Arbitrary<[string, string][]> = fc.array(
  fc.oneof(
    fc.constantFrom<[string, string]>(['accept', 'text/event-stream'], ['anthropic-beta', 'x'], ['openai-beta', 'realtime=v1'], ['x-request-id', 'client-chosen'], ['accept-encoding', 'gzip']),
    fc.tuple(fc.constantFrom('x-fuzz', 'user-agent', 'x-stainless-lang'), fc.string({ unit: 'grapheme', maxLength: 40 }).map((s) => s.replace(/[\r\n\0]/g, ''))),
  ),
  { maxLength: 3 },
);
