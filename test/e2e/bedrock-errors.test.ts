/**
 * Bedrock's exceptions through the gateway's one error path: each HTTP exception becomes the status and
 * code the client's SDK reads, credential refusals a 502 `upstream_auth_failed` without Bedrock's words,
 * and an exception inside the event stream the client style's in-stream error.
 */
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { beforeEach, describe, expect, test } from 'vitest';
import { createBedrockErrorHeaders } from '../../src/protocols/bedrock/simulator/index.ts';
import { anthropic, gw, openai, useTranslationGateway } from './translation-drivers.ts';

useTranslationGateway();
beforeEach(() => gw.sims.bedrock.reset());

const MODEL = 'bedrock-claude-sonnet-4';

const HTTP_ERRORS = [
  { type: 'ValidationException', status: 400, client: 400 },
  { type: 'ThrottlingException', status: 429, client: 429 },
  { type: 'ResourceNotFoundException', status: 404, client: 404 },
  { type: 'ModelTimeoutException', status: 408, client: 504 },
  { type: 'ServiceUnavailableException', status: 503, client: 503 },
  { type: 'ModelNotReadyException', status: 429, client: 503 },
];

describe('Bedrock HTTP exceptions', () => {
  test.each(HTTP_ERRORS)('$type ($status) reaches the OpenAI SDK as $client with its code and message', async ({ type, status, client }) => {
    gw.sims.bedrock.failNext({ kind: 'status', status, body: { message: `simulated ${type}` }, headers: createBedrockErrorHeaders(type) });
    const error: any = await openai().chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'hi' }] }).catch((e) => e);
    expect(error).toBeInstanceOf(OpenAI.APIError);
    expect(error.status).toBe(client);
    expect(error.error).toMatchObject({ code: type, message: `simulated ${type}` });
    expect(gw.sims.bedrock.received).toHaveLength(1);
  });

  test.each(['AccessDeniedException', 'UnrecognizedClientException'])('%s is a 502 upstream_auth_failed that does not echo Bedrock', async (type) => {
    gw.sims.bedrock.failNext({ kind: 'status', status: 403, body: { message: 'The security token AKIAGATEWAYSIMULATOR is invalid.' }, headers: createBedrockErrorHeaders(type) });
    const error: any = await anthropic().messages.create({ model: MODEL, max_tokens: 20, messages: [{ role: 'user', content: 'hi' }] }).catch((e) => e);
    expect(error).toBeInstanceOf(Anthropic.APIError);
    expect(error.status).toBe(502);
    expect(error.error).toMatchObject({ type: 'error', error: { type: 'api_error' } });
    expect(JSON.stringify(error.error)).toContain('rejected the gateway');
    expect(JSON.stringify(error.error)).not.toContain('AKIA');
  });
});

test('the SigV4 key id is one of the secrets redacted from what Bedrock says', async () => {
  gw.sims.bedrock.failNext({ kind: 'status', status: 400, body: { message: 'Key AKIAGATEWAYSIMULATOR may not call this model.' }, headers: createBedrockErrorHeaders('ValidationException') });
  const error: any = await openai().chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'hi' }] }).catch((e) => e);
  expect(error.status).toBe(400);
  expect(error.error.message).toMatch(/^Key .+ may not call this model\.$/);
  expect(error.error.message).not.toContain('AKIAGATEWAYSIMULATOR');
});

describe('Bedrock in-stream exceptions', () => {
  test('an exception before any text is sent is an HTTP error with its status (nothing reached the client yet)', async () => {
    gw.sims.bedrock.failStreamNext('throttlingException', 'Too many tokens, please wait before trying again.');
    const error: any = await openai().chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'hello stream' }], stream: true }).catch((e) => e);
    expect(error).toBeInstanceOf(OpenAI.APIError);
    expect(error.status).toBe(429);
    expect(error.error).toMatchObject({ code: 'ThrottlingException', message: 'Too many tokens, please wait before trying again.' });
  });

  test('an exception after text was sent ends the OpenAI stream with the in-stream error', async () => {
    gw.sims.bedrock.failStreamNext('modelStreamErrorException', 'The model stream failed.', 3);
    const stream = await openai().chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'hello stream' }], stream: true });
    let text = '';
    const read = async () => {
      for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? '';
    };
    const error: any = await read().catch((e) => e);
    expect(text).toBe('Echo: hello');
    expect(error).toBeInstanceOf(OpenAI.APIError);
    expect(error.error).toMatchObject({ code: 'ModelStreamErrorException', message: 'The model stream failed.' });
  });

  test('an exception after text was sent reaches the Anthropic SDK stream as an error event', async () => {
    gw.sims.bedrock.failStreamNext('serviceUnavailableException', 'Bedrock is unavailable.', 3);
    const stream = anthropic().messages.stream({ model: MODEL, max_tokens: 50, messages: [{ role: 'user', content: 'hello stream' }] });
    let text = '';
    stream.on('text', (delta) => (text += delta));
    const error: any = await stream.finalMessage().catch((e) => e);
    expect(text).toBe('Echo: hello');
    expect(error).toBeInstanceOf(Anthropic.APIError);
    expect(error.error).toMatchObject({ type: 'error', error: { type: 'api_error', message: 'Bedrock is unavailable.' } });
  });
});
