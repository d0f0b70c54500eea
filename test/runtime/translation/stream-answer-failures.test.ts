import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { anthropicChat } from '../../../src/protocols/anthropic/translate/index.ts';
import { createAnthropicStreamDecoder } from '../../../src/protocols/anthropic/translate/stream-decode.ts';
import type { StreamDecoder } from '../../../src/translate/adapter.ts';
import { startTestGateway, type TestGateway } from '../../helpers/start-gateway.ts';

/**
 * Who a translated stream's failure is blamed on: the vendor when reading its body failed (a reset: 502
 * `upstream_stream_failed`), the gateway when its own code threw something not a GatewayError while
 * translating (500 `internal_error`: a bug of the gateway's, which the vendor's metrics must not carry).
 * A failure after the first bytes keeps the client's 200 in the request's event, with the failure's code.
 */
let gw: TestGateway;
beforeAll(async () => {
  gw = await startTestGateway();
});
afterAll(() => gw.close());
afterEach(() => vi.restoreAllMocks());

/** A stream decoder that throws a TypeError, as a bug would, at the first text delta. */
function createBrokenDecoder(): StreamDecoder {
  const real = createAnthropicStreamDecoder();
  return {
    get done() {
      return real.done;
    },
    decode(event) {
      if (event.event === 'content_block_delta') throw new TypeError('a bug of the gateway');
      return real.decode(event);
    },
  } as StreamDecoder;
}

async function streamChat(): Promise<{ status: number; text: string }> {
  const response = await fetch(`${gw.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${gw.key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'sim-anthropic-chat', stream: true, messages: [{ role: 'user', content: 'a few words to stream' }] }),
  });
  return { status: response.status, text: await response.text() };
}

describe('a translated stream that fails', () => {
  it('is the gateway\'s internal error when its own translation throws', async () => {
    vi.spyOn(anthropicChat, 'createStreamDecoder').mockImplementation(createBrokenDecoder);
    const event = gw.nextEvent();
    const { status, text } = await streamChat();
    expect(status).toBe(500);
    expect(JSON.parse(text).error).toMatchObject({ code: 'internal_error', message: 'The gateway failed to handle the request.' });
    expect(text).not.toContain('a bug of the gateway');
    expect((await event).error).toBe('internal_error');
  });

  it('is the vendor\'s stream failure when its body breaks off, and the request\'s event names it beside the 200 the client got', async () => {
    gw.sims.anthropic.failNext({ kind: 'reset-mid-stream', afterEvents: 3 });
    const event = gw.nextEvent();
    const { status, text } = await streamChat();
    expect(status).toBe(200);
    expect(text).toContain('upstream_stream_failed');
    expect(await event).toMatchObject({ status: 200, error: 'upstream_stream_failed' });
  });
});
