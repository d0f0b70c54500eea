import fc from 'fast-check';
import type { Expectation } from './check-answer.ts';
import { describeCase, type FuzzCase } from './arbitraries-requests.ts';

/** Request targets no client library would send: bad escapes, dot segments, overlong, absolute form. */
export const HOSTILE_TARGETS = [
  '/v1/models/%FF',
  '/v1/models/%',
  '/v1/videos/%E0%A4%A',
  '/v1/videos/%FF/content',
  '/v1beta/models/%FF:generateContent',
  '/v1beta/models/%:countTokens',
  '/v1beta/models/%C0%AE%C0%AE',
  '/../v1/models',
  '/v1/../../etc/passwd',
  '/v1/./models',
  '//v1/models',
  '/v1/models/',
  '/v1/chat/completions%00',
  '/v1/chat/completions/',
  '/V1/CHAT/COMPLETIONS',
  `/v1/models/${'a'.repeat(8000)}`,
  `/v1beta/models/${'%41'.repeat(2000)}:generateContent`,
  '/v1/models/%2e%2e%2fetc',
  '/files/images/%FF',
  '/files/images/../../gateway.yaml',
  '/files/x',
  '/healthz/%FF',
  '*',
  'http://evil.example/v1/models',
  '/v1/models?%FF=%FF&key=%',
  '/v1/models/温度',
];

/** One change to a request head that a client library would refuse to make (hence raw sockets). */
interface HeadMutation {
  name: string;
  apply(lines: string[]): string[] | Buffer;
  /** The gateway (or Node's parser in front of it) must refuse it before any vendor call. */
  reject?: boolean;
}

const withHeader = (line: string) => (lines: string[]) => [...lines, line];
const AUTH_HEADER = /^(authorization|x-api-key|x-goog-api-key):/i;
/** The request's auth header (whichever of the styles' it has) replaced, or an `authorization` header added when its key is in the query. */
const replaceAuth = (line: (name: string) => string) => (lines: string[]) =>
  lines.some((l) => AUTH_HEADER.test(l)) ? lines.map((l) => (AUTH_HEADER.test(l) ? line(l.split(':')[0].toLowerCase()) : l)) : [...lines, line('authorization')];

/** Header-level mutations: CR/LF and NUL inside values, non-ASCII, huge values, many and duplicate headers. */
export const HEAD_MUTATIONS: HeadMutation[] = [
  { name: 'CR inside a value', apply: withHeader('x-fuzz: a\rb'), reject: true },
  { name: 'LF inside a value (header injection)', apply: withHeader('x-fuzz: a\nx-injected: 1') },
  { name: 'NUL inside a value', apply: withHeader('x-fuzz: a\0b'), reject: true },
  { name: 'CR/LF in the auth header', apply: (lines) => lines.map((l) => (/^(authorization|x-api-key|x-goog-api-key):/i.test(l) ? `${l}\r\n x-folded: 1` : l)) },
  { name: 'raw Latin-1 byte in a value', apply: (lines) => Buffer.concat([Buffer.from(lines.join('\r\n') + '\r\nx-fuzz: caf', 'utf8'), Buffer.from([0xe9])]) },
  { name: 'raw 0xFF byte in the path', apply: (lines) => Buffer.concat([Buffer.from(lines[0].replace(/ HTTP\/1\.1$/, ''), 'utf8'), Buffer.from([0xff]), Buffer.from(' HTTP/1.1\r\n' + lines.slice(1).join('\r\n'), 'utf8')]) },
  { name: 'UTF-8 in a value', apply: withHeader('x-fuzz: 温度😀') },
  { name: 'UTF-8 in the auth header', apply: replaceAuth((name) => `${name}: ${name === 'authorization' ? 'Bearer ' : ''}温度`) },
  { name: 'huge value (32 KB)', apply: withHeader(`x-fuzz: ${'v'.repeat(32_000)}`), reject: true },
  { name: 'huge auth header (20 KB)', apply: replaceAuth((name) => `${name}: ${name === 'authorization' ? 'Bearer ' : ''}${'k'.repeat(20_000)}`), reject: true },
  { name: '400 headers', apply: (lines) => [...lines, ...Array.from({ length: 400 }, (_, i) => `x-h${i}: v`)] },
  { name: 'two different content-lengths', apply: withHeader('content-length: 1'), reject: true },
  { name: 'chunked and content-length', apply: withHeader('transfer-encoding: chunked'), reject: true },
  { name: 'two authorization headers', apply: withHeader('authorization: Bearer sk-not-a-configured-key') },
  { name: 'two content-types', apply: withHeader('content-type: text/plain') },
  { name: 'header without a colon', apply: withHeader('no-colon-here'), reject: true },
  { name: 'space before the colon', apply: withHeader('content-type : application/json'), reject: true },
  { name: 'obs-fold continuation', apply: withHeader(' folded-continuation') },
  { name: 'expect 100-continue', apply: withHeader('expect: 100-continue') },
  { name: 'expect something else', apply: withHeader('expect: 200-ok'), reject: true },
  { name: 'no host', apply: (lines) => lines.filter((l) => !l.toLowerCase().startsWith('host:')) },
  { name: 'HTTP/1.0', apply: (lines) => [lines[0].replace('HTTP/1.1', 'HTTP/1.0'), ...lines.slice(1)] },
  { name: 'invalid method token', apply: (lines) => [lines[0].replace(/^\S+/, 'G@T'), ...lines.slice(1)], reject: true },
  { name: 'lower-case method', apply: (lines) => [lines[0].replace(/^\S+/, (m) => m.toLowerCase()), ...lines.slice(1)], reject: true },
];

/** `base` with its request target replaced by a hostile one (no route: any style's error shape will do). */
export function arbitraryHostileTarget(base: fc.Arbitrary<FuzzCase>): fc.Arbitrary<FuzzCase> {
  const random = fc.array(fc.oneof(fc.constantFrom('%', '%F', '%FF', '..', '.', '', 'v1', 'v1beta', 'models', ':generateContent'), fc.string({ maxLength: 8 })), { minLength: 1, maxLength: 6 }).map((parts) => '/' + parts.join('/').replace(/[\s?#]/g, '_'));
  return fc.tuple(base, fc.oneof(fc.constantFrom(...HOSTILE_TARGETS), random)).map(([c, target]) => {
    const lines = String(c.request.head).split('\r\n');
    const [method] = lines[0].split(' ');
    const expect: Expectation = {};
    return describeCase({ ...c.request, head: [`${method} ${target} HTTP/1.1`, ...lines.slice(1)].join('\r\n') }, expect);
  });
}

/** `base` with one head mutation; a mutation the gateway must refuse carries that in the expectation. */
export function arbitraryHeadMutation(base: fc.Arbitrary<FuzzCase>): fc.Arbitrary<FuzzCase> {
  return fc.tuple(base, fc.constantFrom(...HEAD_MUTATIONS)).map(([c, mutation]) => {
    const head = mutation.apply(String(c.request.head).split('\r\n'));
    const expect: Expectation = { rejectBeforeVendor: c.expect.rejectBeforeVendor ?? (mutation.reject ? `a request with ${mutation.name}` : undefined) };
    return describeCase({ ...c.request, head: Array.isArray(head) ? head.join('\r\n') : head }, expect);
  });
}
