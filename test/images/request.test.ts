import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import type { ImageOptions } from '../../src/config/types.ts';
import { readImageRequest, withImageCount } from '../../src/images/request.ts';
import type { OpCall } from '../../src/runtime/types.ts';
import { readTransformOps } from '../../src/transforms/index.ts';

const yaml = parse(readFileSync(new URL('../../gateway.yaml', import.meta.url), 'utf8'));
const transforms = { 'images-a-to-envelope': readTransformOps(yaml.transforms['images-a-to-envelope']) };
const OPENAI: ImageOptions = { shape: 'openai', splitN: false, styleUnsupported: 'reject', rehost: false, b64FromUrl: true, b64Only: false, pollTimeoutMs: 1000 };
const ENVELOPE: ImageOptions = { ...OPENAI, shape: 'envelope', maxN: 4, defaultN: 1, transform: 'images-a-to-envelope', styles: [] };

function call(body: unknown, upstream = 'vendor-model'): OpCall {
  return {
    body,
    model: { id: 'client-model' },
    target: { vendor: 'v', upstream, weight: 1 },
    ctx: { snapshot: { config: { transforms } } },
  } as unknown as OpCall;
}

function errorOf(fn: () => unknown) {
  try {
    fn();
  } catch (error) {
    return error as { status: number; param?: string; message: string };
  }
  throw new Error('no error thrown');
}

describe('readImageRequest', () => {
  it('converts shape A for an envelope model with its YAML transform and sends default_n when n is missing', () => {
    const request = readImageRequest(call({ model: 'client-model', prompt: 'p', size: '1024x1024', quality: 'hd', user: 'u', response_format: 'b64_json' }), ENVELOPE);
    expect(request).toEqual({
      vendorBody: { model: 'vendor-model', input: { prompt: 'p' }, parameters: { size: '1024*1024', n: 1 } },
      n: 1,
      nSent: false,
      nParam: 'n',
      responseFormat: 'b64_json',
    });
  });

  it('keeps a shape B body as sent, apart from the upstream model and the gateway’s response_format', () => {
    const body = { model: 'client-model', input: { prompt: 'p' }, parameters: { n: 3, size: '768*2700', watermark: true }, response_format: 'b64_json' };
    const request = readImageRequest(call(body), ENVELOPE);
    expect(request.vendorBody).toEqual({ model: 'vendor-model', input: { prompt: 'p' }, parameters: { n: 3, size: '768*2700', watermark: true } });
    expect(request).toMatchObject({ n: 3, nSent: true, nParam: 'parameters.n', responseFormat: 'b64_json' });
  });

  it('forwards a shape A body to a shape A vendor unchanged apart from the model, adding no n', () => {
    const body = { model: 'client-model', prompt: 'p', style: 'vivid', response_format: 'url', extra_vendor_field: 1 };
    expect(readImageRequest(call(body), OPENAI).vendorBody).toEqual({ ...body, model: 'vendor-model' });
  });

  it('answers b64_json for a base64-only model and does not send response_format to it', () => {
    const request = readImageRequest(call({ model: 'm', prompt: 'p', response_format: 'url' }), { ...OPENAI, b64Only: true });
    expect(request.responseFormat).toBe('b64_json');
    expect(request.vendorBody).toEqual({ model: 'vendor-model', prompt: 'p' });
  });

  it('names the expected shape: shape B to a shape A model, shape A to an envelope model without a transform', () => {
    expect(errorOf(() => readImageRequest(call({ model: 'm', input: { prompt: 'p' } }), OPENAI))).toMatchObject({
      status: 400,
      param: 'input',
      message: expect.stringContaining('takes shape A'),
    });
    expect(errorOf(() => readImageRequest(call({ model: 'm', prompt: 'p' }), { ...ENVELOPE, transform: undefined }))).toMatchObject({
      param: 'prompt',
      message: expect.stringContaining('send `input.prompt`'),
    });
  });

  it('rejects a body the transform cannot place, naming the field in the way', () => {
    expect(errorOf(() => readImageRequest(call({ model: 'm', prompt: 'p', size: '1024x1024', parameters: 'x' }), ENVELOPE))).toMatchObject({
      status: 400,
      param: 'parameters',
    });
  });

  it('sets the image count of a fan-out part where the model’s shape keeps n', () => {
    const a = readImageRequest(call({ model: 'm', prompt: 'p', n: 3 }), OPENAI);
    expect(withImageCount(a, OPENAI, 1)).toEqual({ model: 'vendor-model', prompt: 'p', n: 1 });
    const b = readImageRequest(call({ model: 'm', prompt: 'p', n: 6 }), ENVELOPE);
    expect(withImageCount(b, ENVELOPE, 4).parameters).toEqual({ n: 4 });
  });
});
