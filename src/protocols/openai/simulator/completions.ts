import type { ServerResponse } from 'node:http';
import { createMissingParamError, createOpenAIError, INVALID_JSON_ERROR } from './errors.ts';
import type { OpenAIState } from './state.ts';
import { readJson, sendJson, type SimRequest } from '../../../simulators/sim-server.ts';
import { formatSse, SSE_HEADERS, writeStream } from '../../../simulators/sim-stream.ts';
import { countTokens, createEcho, isObject, nowSeconds, splitPieces, toText, truncateWords } from '../../../simulators/text.ts';

/**
 * POST /v1/completions (legacy, fixtures/openai/completions-legacy-*): `text` is `Echo: <prompt>` cut to
 * `max_tokens` words (finish_reason "length", else "stop"); the stream sends one `text_completion`
 * chunk per piece, a final chunk with `text:""` and the finish_reason, optional usage chunk, `[DONE]`.
 */
export function handleCompletions(state: OpenAIState, req: SimRequest, res: ServerResponse): void | Promise<void> {
  const body = readJson(req.body);
  if (!isObject(body)) return sendJson(res, 400, INVALID_JSON_ERROR);
  if (typeof body.model !== 'string') return sendJson(res, 400, createOpenAIError('you must provide a model parameter'));
  if (body.prompt === undefined) return sendJson(res, 400, createMissingParamError('prompt'));
  const prompt = Array.isArray(body.prompt) ? body.prompt.filter((p: unknown) => typeof p === 'string').join(' ') : toText(body.prompt);
  const full = createEcho(prompt);
  const cut = truncateWords(full, body.max_tokens);
  const text = cut ?? full;
  const finish = cut === undefined ? 'stop' : 'length';
  const id = `cmpl-${state.nextId()}`;
  const created = nowSeconds();
  const usage = { prompt_tokens: countTokens(prompt), completion_tokens: countTokens(text), total_tokens: countTokens(prompt) + countTokens(text) };
  if (body.stream !== true) {
    return sendJson(res, 200, {
      id, object: 'text_completion', created, model: body.model, system_fingerprint: 'fp_sim',
      choices: [{ text, index: 0, logprobs: null, finish_reason: finish }],
      usage,
    });
  }
  const chunk = (piece: string, finishReason: string | null): string =>
    formatSse(JSON.stringify({ id, object: 'text_completion', created, choices: [{ text: piece, index: 0, logprobs: null, finish_reason: finishReason }], model: body.model, system_fingerprint: 'fp_sim' }));
  const paced = splitPieces(text, state.streamEvents).map((piece) => chunk(piece, null));
  const tail = [chunk('', finish)];
  if (body.stream_options?.include_usage === true) {
    tail.push(formatSse(JSON.stringify({ id, object: 'text_completion', created, choices: [], model: body.model, system_fingerprint: 'fp_sim', usage })));
  }
  tail.push('data: [DONE]\n\n');
  return writeStream(res, SSE_HEADERS, { head: [], paced, tail }, state.streamIntervalMs);
}
