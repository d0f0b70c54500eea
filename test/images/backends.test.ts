import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../src/errors.ts';
import { getImageBackend } from '../../src/images/backends.ts';
import { nativeImageBackend } from '../../src/images/native-backend.ts';

describe('the image backend of a vendor protocol, read from its adapter', () => {
  it('is the synchronous images endpoint for a protocol that forwards one', () => {
    expect(getImageBackend('openai')).toBe(nativeImageBackend);
  });

  it('is one asynchronous task backend for a protocol that declares image tasks', () => {
    const backend = getImageBackend('dashscope');
    expect(backend).not.toBe(nativeImageBackend);
    expect(backend.urlOnly).toBe(true);
    expect(getImageBackend('dashscope')).toBe(backend);
  });

  it('is a 501 not_implemented naming the protocol for a protocol with neither', () => {
    for (const protocol of ['anthropic', 'gemini'] as const) {
      let thrown: unknown;
      try {
        getImageBackend(protocol);
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(GatewayError);
      expect(thrown).toMatchObject({ status: 501, code: 'not_implemented', message: `Image generation is not available for models on ${protocol} vendors.` });
    }
  });
});
