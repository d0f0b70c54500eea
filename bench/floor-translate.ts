/**
 * The floor's translation: what the barest hand-written proxy does to put an OpenAI chat client in front
 * of an Anthropic messages vendor, so the bench can say what translating costs before any gateway work.
 * The request: system messages joined into `system`, the rest passed as they are, `max_tokens` (4096 when
 * absent), streamed. The answer: eventsource-parser over the UTF-8 text, `JSON.parse` of each event and
 * `JSON.stringify` of each chat chunk (the role chunk, one per text delta, the finish chunk, `[DONE]`),
 * the chunks of one vendor read written together. Text deltas only: no tools, no thinking, no usage, no
 * vendor error events (a stream that is not one of those ends as the vendor ends it). No log, auth or limits.
 */
import type { ServerResponse } from 'node:http';
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import type { Dispatcher, Pool } from 'undici';

/** Where the floor sends an Anthropic-protocol model: the vendor's pool, base path and key. */
export interface TranslatedTarget {
  pool: Pool;
  basePath: string;
  key: string;
}

const FINISH_REASONS: Record<string, string> = { end_turn: 'stop', stop_sequence: 'stop', max_tokens: 'length', tool_use: 'tool_calls' };
const DEFAULT_MAX_TOKENS = 4096;

/** The messages request of a chat request. */
export function defineMessagesRequest(chat: Record<string, any>, model: string): Record<string, unknown> {
  const messages: unknown[] = Array.isArray(chat.messages) ? chat.messages : [];
  const system = messages.filter((m: any) => m?.role === 'system').map((m: any) => m.content).join('\n');
  return {
    model,
    max_tokens: typeof chat.max_tokens === 'number' ? chat.max_tokens : DEFAULT_MAX_TOKENS,
    messages: messages.filter((m: any) => m?.role !== 'system'),
    ...(system ? { system } : {}),
    ...(typeof chat.temperature === 'number' ? { temperature: chat.temperature } : {}),
    stream: true,
  };
}

/** Turns the messages stream's events into chat chunks, one string per event (empty for the rest). */
export function createChunkTranslator(): (event: EventSourceMessage) => string {
  const created = Math.floor(Date.now() / 1000);
  let id = '';
  let model = '';
  const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
    `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model, choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }] })}\n\n`;
  return (event) => {
    const data = JSON.parse(event.data);
    if (data.type === 'message_start') {
      id = `chatcmpl-${data.message.id}`;
      model = data.message.model;
      return chunk({ role: 'assistant', content: '' });
    }
    if (data.type === 'content_block_delta' && data.delta.type === 'text_delta') return chunk({ content: data.delta.text });
    if (data.type === 'message_delta' && data.delta.stop_reason) return chunk({}, FINISH_REASONS[data.delta.stop_reason] ?? 'stop');
    if (data.type === 'message_stop') return 'data: [DONE]\n\n';
    return '';
  };
}

/** Streams the vendor's translated answer to `res`: the chunks of each read in one write. */
function pipeTranslated(res: ServerResponse, response: Dispatcher.ResponseData): void {
  if (response.statusCode !== 200) {
    res.writeHead(response.statusCode, { 'content-type': String(response.headers['content-type'] ?? 'application/json') });
    response.body.pipe(res);
    return;
  }
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const translate = createChunkTranslator();
  let out = '';
  const parser = createParser({ onEvent: (event) => (out += translate(event)) });
  const decoder = new TextDecoder();
  const body = response.body;
  body.on('data', (chunk: Buffer) => {
    try {
      parser.feed(decoder.decode(chunk, { stream: true }));
    } catch {
      return res.destroy();
    }
    if (out) res.write(out);
    out = '';
  });
  body.on('end', () => res.end());
  body.on('error', () => res.destroy());
  res.on('close', () => {
    if (!body.readableEnded) body.destroy();
  });
}

/**
 * Sends a parsed streamed chat request to an Anthropic-protocol vendor and streams its answer back as chat
 * chunks (a request that does not ask for a stream gets 400: the floor translates streams only).
 */
export function forwardTranslated(res: ServerResponse, target: TranslatedTarget, chat: Record<string, any>, model: string): void {
  if (chat.stream !== true) {
    res.writeHead(400, { 'content-type': 'text/plain' }).end('the floor translates streams only');
    return;
  }
  target.pool
    .request({
      path: `${target.basePath}/v1/messages`,
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': target.key, 'anthropic-version': '2023-06-01' },
      body: JSON.stringify(defineMessagesRequest(chat, model)),
    })
    .then(
      (response) => pipeTranslated(res, response),
      () => (res.headersSent ? res.destroy() : res.writeHead(502).end('upstream failed')),
    );
}
