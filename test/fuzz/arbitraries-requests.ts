import fc from 'fast-check';
import type { CompiledConfig, RouteEntry } from '../../src/config/types.ts';
import { arbitraryDeepNesting, arbitraryInvalidUtf8, arbitraryMutation, describeBody, formatDeepBody, spliceBytes } from './arbitraries-bodies.ts';
import { arbitraryAuth, arbitraryContentType, arbitraryExtraHeaders, arbitraryModel, arbitraryQuery, arbitraryRoutePath, AUTH_KINDS, isJsonContentType, presentKey, type AuthKind } from './arbitraries.ts';
import type { Expectation } from './check-answer.ts';
import { FUZZ_BODY_LIMIT } from './fuzz-gateway.ts';
import { formatHead, type RawRequest } from './raw-http.ts';

/** One generated request to the gateway and what it promises. */
export interface FuzzCase {
  request: RawRequest;
  expect: Expectation;
}

/** What kind of body a case sends. */
export const BODY_KINDS = ['plausible', 'mutated', 'random-json', 'not-json', 'deep', 'invalid-utf8', 'huge-string', 'over-limit', 'empty'] as const;
export type BodyKind = (typeof BODY_KINDS)[number];

const NO_KEY: AuthKind[] = ['none', 'wrong-bearer', 'wrong-x-api-key', 'wrong-query', 'malformed'];

/** The body bytes of `kind` for `route`, and the reason the gateway must refuse it itself (if it must). */
function arbitraryBody(config: CompiledConfig, route: RouteEntry, kind: BodyKind): fc.Arbitrary<{ body: Buffer; reject?: string }> {
  const plausible = fc.tuple(arbitraryModel(config, route.op), fc.boolean()).map(([model, stream]) => describeBody(route.op, model, stream));
  const text = (value: unknown) => ({ body: Buffer.from(JSON.stringify(value)) });
  switch (kind) {
    case 'plausible':
      return plausible.map(text);
    case 'mutated':
      return plausible.chain(arbitraryMutation).map(text);
    case 'random-json':
      return fc.jsonValue({ maxDepth: 4 }).map(text);
    case 'not-json':
      return fc.constantFrom('', '{', '{"model":', 'null', '[]', '"str"', '{"a":1}}', 'model=gpt-4o', '\uFEFF{}').map((s) => ({ body: Buffer.from(s) }));
    case 'deep':
      return fc.tuple(plausible, arbitraryDeepNesting).map(([body, [depth, place]]) => ({ body: Buffer.from(formatDeepBody(body, depth, place)), reject: `JSON nested ${depth} levels (limit 128)` }));
    case 'invalid-utf8':
      return fc.tuple(plausible, arbitraryInvalidUtf8).map(([body, bad]) => ({ body: spliceBytes(JSON.stringify(body), bad), reject: `a body with invalid UTF-8 (${bad.toString('hex')})` }));
    case 'huge-string':
      return fc.tuple(arbitraryModel(config, route.op), fc.integer({ min: 10_000, max: FUZZ_BODY_LIMIT - 2000 })).map(([model, size]) => text(describeBody(route.op, model, false, 'x'.repeat(size))));
    case 'over-limit':
      return fc.tuple(arbitraryModel(config, route.op), fc.integer({ min: FUZZ_BODY_LIMIT + 1, max: FUZZ_BODY_LIMIT * 4 })).map(([model, size]) => ({
        body: Buffer.from(JSON.stringify(describeBody(route.op, model, false, 'x'.repeat(size)))),
        reject: `a ${size} byte body over the ${FUZZ_BODY_LIMIT} byte limit`,
      }));
    default:
      return fc.constant({ body: Buffer.alloc(0) });
  }
}

/** Options of {@link arbitraryRouteCase}. */
export interface RouteCaseOptions {
  /** Body kinds to pick from (default: all). */
  bodies?: readonly BodyKind[];
  /** Auth kinds to pick from (default: all). */
  auth?: readonly AuthKind[];
  /** Sometimes send the wrong method (default true). */
  wrongMethods?: boolean;
}

/**
 * A request to a route of the table (every route, every auth kind): its path with filled-in parameters,
 * extra query and headers, a body of some kind and a content type; the expectation says which style answers
 * and what the gateway must refuse before calling a vendor.
 */
export function arbitraryRouteCase(config: CompiledConfig, options: RouteCaseOptions = {}): fc.Arbitrary<FuzzCase> {
  const bodies = options.bodies ?? BODY_KINDS;
  return fc.constantFrom(...config.routes).chain((route) =>
    fc
      .record({
        path: arbitraryRoutePath(config, route),
        method: options.wrongMethods === false ? fc.constant(route.method) : fc.oneof({ weight: 9, arbitrary: fc.constant(route.method) }, { weight: 1, arbitrary: fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS') }),
        auth: arbitraryAuth(route.style, options.auth ?? AUTH_KINDS),
        query: arbitraryQuery(config),
        extra: arbitraryExtraHeaders,
        contentType: route.body === 'multipart' ? fc.constantFrom('multipart/form-data; boundary=fuzzb', 'application/json', undefined) : arbitraryContentType,
        kind: bodies.includes('plausible') ? fc.oneof({ weight: bodies.length, arbitrary: fc.constant<BodyKind>('plausible') }, { weight: bodies.length, arbitrary: fc.constantFrom(...bodies) }) : fc.constantFrom(...bodies),
      })
      .chain((parts) => arbitraryBody(config, route, parts.kind).map((body) => ({ route, parts, ...body }))),
  ).map(({ route, parts, body, reject }) => {
    const auth = presentKey(parts.auth);
    const query = [...(auth.query ? [auth.query] : []), ...parts.query];
    const target = query.length ? `${parts.path}?${query.join('&')}` : parts.path;
    const multipart = route.body === 'multipart' && parts.contentType?.startsWith('multipart/');
    const sent = multipart ? formatMultipart(body) : route.body === 'none' && parts.method === 'GET' ? Buffer.alloc(0) : body;
    const headers: [string, string][] = [['host', 'fuzz.test'], ['connection', 'close'], ...auth.headers, ...parts.extra];
    if (parts.contentType !== undefined) headers.push(['content-type', parts.contentType]);
    if (sent.length > 0 || parts.method === 'POST') headers.push(['content-length', String(sent.length)]);
    const expect: Expectation = { style: route.style };
    const sameRoute = parts.method === route.method;
    if (sameRoute && route.body === 'json' && !isJsonContentType(parts.contentType)) expect.rejectBeforeVendor = `a JSON route got Content-Type ${JSON.stringify(parts.contentType ?? null)}`;
    else if (sameRoute && route.body === 'json' && reject) expect.rejectBeforeVendor = reject;
    if (sameRoute && NO_KEY.includes(parts.auth)) expect.rejectBeforeVendor ??= `no valid key (${parts.auth})`;
    return describeCase({ head: formatHead(parts.method, target, headers), body: sent }, expect);
  });
}

/** A case that prints readably in a failure report (head, then the body's start as text). */
export function describeCase(request: RawRequest, expect: Expectation): FuzzCase {
  return {
    request,
    expect,
    [fc.toStringMethod]: () => {
      const body = request.body ?? Buffer.alloc(0);
      const preview = body.subarray(0, 300).toString('utf8') + (body.length > 300 ? `... (${body.length} bytes)` : '');
      const cut = request.cutAfter === undefined ? '' : ` [upload cut after ${request.cutAfter} bytes, ${request.cutHow ?? 'destroy'}]`;
      return JSON.stringify(`${String(request.head).slice(0, 600)}\r\n\r\n${preview}${cut}`) + ` expecting ${JSON.stringify(expect)}`;
    },
  } as FuzzCase;
}

/** A multipart form with the JSON body's `model` as a field and the rest as a file part. */
function formatMultipart(json: Buffer): Buffer {
  let model = 'whisper-1';
  try {
    model = String(JSON.parse(json.toString('utf8'))?.model ?? model);
  } catch {
    // not JSON: the default model
  }
  const part = (disposition: string, content: Buffer | string) => [Buffer.from(`--fuzzb\r\ncontent-disposition: form-data; ${disposition}\r\n\r\n`), Buffer.from(content), Buffer.from('\r\n')];
  return Buffer.concat([...part('name="model"', model), ...part('name="file"; filename="a.wav"\r\ncontent-type: audio/wav', json), Buffer.from('--fuzzb--\r\n')]);
}
