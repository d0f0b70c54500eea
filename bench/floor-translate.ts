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
import type { Dispatcher } from 'undici';

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

/** Streams a vendor's messages stream (a 200 answer) to `res` as chat chunks: the chunks of each read in one write. */
export function pipeTranslated(res: ServerResponse, response: Dispatcher.ResponseData): void {
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
