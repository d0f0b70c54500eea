import busboy from 'busboy';
import fc from 'fast-check';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { CompiledConfig } from '../../src/config/types.ts';
import { startTestGateway, type TestGateway } from '../helpers/start-gateway.ts';

const ALIAS = 'fuzz-video';
/** Routes taking an upload, each with a model the vendor knows by another name. */
const UPLOAD_ROUTES = [
  { path: '/v1/videos', alias: ALIAS, upstream: 'sora-2' },
  { path: '/v1/images/edits', alias: 'fuzz-edit', upstream: 'dall-e-2' },
  { path: '/v1/audio/transcriptions', alias: 'fuzz-whisper', upstream: 'whisper-1' },
  { path: '/v1/audio/translations', alias: 'fuzz-whisper', upstream: 'whisper-1' },
];
const BOUNDARY = 'fuzzvideob';
let gw: TestGateway;

beforeAll(async () => {
  gw = await startTestGateway((config: CompiledConfig) => ({
    ...config,
    models: {
      ...config.models,
      ...Object.fromEntries(UPLOAD_ROUTES.map(({ alias, upstream }) => [alias, { ...config.models[upstream], id: alias, targets: [{ vendor: 'openai', upstream, weight: 1 }] }])),
    },
  }));
});
afterAll(() => gw.close());
beforeEach(() => gw.sims.openai.reset());

type Part = { name: string; value: string } | { name: string; filename: string; data: Uint8Array };

/** A field name as a client encodes it: quotes and line breaks percent-encoded (no backslashes: see below). */
const arbitraryName = fc.oneof(
  fc.constantFrom('model', 'prompt', 'seconds', 'size', 'input_reference', '__proto__', 'constructor'),
  fc.string({ minLength: 1, maxLength: 20, unit: 'grapheme' }).map((name) => name.replace(/\\/g, '').replace(/"/g, '%22').replace(/\r/g, '%0D').replace(/\n/g, '%0A')).filter((name) => name !== ''),
);
const arbitraryPart: fc.Arbitrary<Part> = fc.oneof(
  fc.record({ name: arbitraryName, value: fc.string({ maxLength: 40, unit: 'grapheme' }) }),
  fc.record({ name: arbitraryName, filename: fc.constantFrom('a.png', 'frame 1.jpg'), data: fc.uint8Array({ maxLength: 300 }) }),
);

function encodeForm(parts: Part[]): Buffer {
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const head = `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${part.name}"`;
    if ('data' in part) chunks.push(Buffer.from(`${head}; filename="${part.filename}"\r\nContent-Type: image/png\r\n\r\n`), Buffer.from(part.data), Buffer.from('\r\n'));
    else chunks.push(Buffer.from(`${head}\r\n\r\n${part.value}\r\n`));
  }
  chunks.push(Buffer.from(`--${BOUNDARY}--\r\n`));
  return Buffer.concat(chunks);
}

function decodeForm(contentType: string, body: Buffer): Promise<Part[]> {
  return new Promise((resolve, reject) => {
    const parts: Part[] = [];
    const parser = busboy({ headers: { 'content-type': contentType }, defParamCharset: 'utf8' });
    parser.on('field', (name, value) => parts.push({ name, value }));
    parser.on('file', (name, stream, info) => {
      const part = { name, filename: info.filename ?? '', data: new Uint8Array() };
      parts.push(part);
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => (part.data = new Uint8Array(Buffer.concat(chunks))));
    });
    parser.on('close', () => resolve(parts));
    parser.on('error', reject);
    parser.end(body);
  });
}

function send(body: Uint8Array, contentType: string, path = '/v1/videos') {
  const bytes = new Uint8Array(body); // an ArrayBuffer-backed copy, what fetch types take
  return fetch(`${gw.url}${path}`, { method: 'POST', headers: { authorization: `Bearer ${gw.key}`, 'content-type': contentType }, body: bytes });
}

describe('multipart uploads (property-based)', () => {
  it.each(UPLOAD_ROUTES)('POST $path forwards any well-formed form in order, every model field renamed for the vendor, file bytes intact', async ({ path, alias, upstream }) => {
    await fc.assert(
      fc.asyncProperty(fc.array(arbitraryPart, { maxLength: 6 }), fc.integer({ min: 0, max: 6 }), async (extra, at) => {
        const parts: Part[] = [{ name: 'model', value: alias }, { name: 'prompt', value: 'p' }];
        parts.splice(Math.min(at, parts.length), 0, ...extra);
        gw.sims.openai.reset();
        const response = await send(encodeForm(parts), `multipart/form-data; boundary=${BOUNDARY}`, path);
        const answer = (await response.json()) as any;
        const first = parts.find((part) => part.name === 'model');
        if (first && 'data' in first) return; // a file named model: no model field value to route by
        if (first && (first as { value: string }).value !== alias) {
          expect(response.status).toBeGreaterThanOrEqual(400);
          expect(response.status).toBeLessThan(500);
          expect(answer.error).toMatchObject({ type: expect.any(String), message: expect.any(String) });
          return;
        }
        const received = gw.sims.openai.received.at(-1);
        expect(received?.url).toBe(path);
        const expected = parts.map((part) => (part.name === 'model' && !('data' in part) ? { ...part, value: upstream } : part));
        expect(await decodeForm(String(received!.headers['content-type']), received!.body)).toEqual(expected);
        expect(response.status === 200 || (response.status >= 400 && response.status < 500)).toBe(true);
      }),
      { numRuns: 40 },
    );
  }, 120_000);

  it('POST /v1/videos refuses hostile bodies (garbage, no boundary, truncated, duplicate boundaries) with a 4xx OpenAI error and no vendor call', async () => {
    const hostile = fc.oneof(
      fc.record({ body: fc.uint8Array({ maxLength: 400 }), contentType: fc.constantFrom('multipart/form-data', 'multipart/form-data; boundary=', `multipart/form-data; boundary=${BOUNDARY}`, 'multipart/form-data; boundary="unterminated') }),
      fc.record({
        body: fc.array(arbitraryPart, { maxLength: 4 }).map((parts) => encodeForm([{ name: 'prompt', value: 'p' }, ...parts.filter((p) => p.name !== 'model')])),
        contentType: fc.constant(`multipart/form-data; boundary=${BOUNDARY}`),
      }),
      fc.tuple(fc.array(arbitraryPart, { maxLength: 4 }), fc.double({ min: 0, max: 0.95, noNaN: true })).map(([parts, cut]) => {
        const body = encodeForm([{ name: 'prompt', value: 'p' }, ...parts.filter((p) => p.name !== 'model'), { name: 'model', value: ALIAS }]);
        return { body: body.subarray(0, Math.floor(body.length * cut)), contentType: `multipart/form-data; boundary=${BOUNDARY}` };
      }),
    );
    await fc.assert(
      fc.asyncProperty(hostile, async ({ body, contentType }) => {
        gw.sims.openai.reset();
        const response = await send(body, contentType);
        const answer = (await response.json()) as any;
        expect(response.status).toBeGreaterThanOrEqual(400);
        expect(response.status).toBeLessThan(500);
        expect(answer.error).toMatchObject({ type: expect.any(String), message: expect.any(String) });
        expect('param' in answer.error && 'code' in answer.error).toBe(true);
        expect(gw.sims.openai.received).toEqual([]);
      }),
      { numRuns: 80 },
    );
  }, 120_000);
});
