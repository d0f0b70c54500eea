/**
 * Reads a client style's stream back into the answer a client keeps (not a test file): chat-completions
 * as the openai SDK assembles it (unknown delta fields last-wins, reasoning text concatenated as a
 * client shows it), messages blocks from their deltas, generate-content parts in order, and the
 * responses style's final response.
 */
import { parseSseText } from './fixtures.ts';

/** The answer of style `style` streamed as `text`, in its non-stream shape. */
export function readBackTurn(style: string, text: string): any {
  const events = parseSseText(text).filter((event) => event.data !== '[DONE]').map((event) => JSON.parse(event.data));
  if (style === 'chat-completions') return readChat(events);
  if (style === 'messages') return readMessages(events);
  if (style === 'generate-content') {
    const parts = events.flatMap((chunk) => chunk.candidates?.[0]?.content?.parts ?? []).filter((part: any) => part.text !== '' || part.thought || part.thoughtSignature);
    return { candidates: [{ content: { role: 'model', parts } }] };
  }
  return events.find((event) => event.type === 'response.completed').response;
}

function readChat(chunks: any[]): any {
  const message: any = { role: 'assistant', content: null };
  let reasoning = '';
  const calls: any[] = [];
  for (const chunk of chunks) {
    const delta = chunk.choices?.[0]?.delta;
    if (!delta) continue;
    const { content, role: _role, tool_calls: toolCalls, reasoning_content: thinking, ...rest } = delta;
    if (content) message.content = (message.content ?? '') + content;
    if (thinking) reasoning += thinking;
    Object.assign(message, rest);
    for (const { index, function: fn, ...call } of toolCalls ?? []) {
      calls[index] ??= { function: { name: '', arguments: '' } };
      Object.assign(calls[index], call);
      if (fn?.name) calls[index].function.name = fn.name;
      if (fn?.arguments) calls[index].function.arguments += fn.arguments;
    }
  }
  if (reasoning) message.reasoning_content = reasoning;
  if (calls.length > 0) message.tool_calls = calls;
  return { choices: [{ message }] };
}

function readMessages(events: any[]): any {
  const blocks: any[] = [];
  for (const event of events) {
    if (event.type === 'content_block_start') blocks[event.index] = { ...event.content_block };
    if (event.type !== 'content_block_delta') continue;
    const block = blocks[event.index];
    const { delta } = event;
    if (delta.type === 'thinking_delta') block.thinking += delta.thinking;
    if (delta.type === 'signature_delta') block.signature = delta.signature;
    if (delta.type === 'text_delta') block.text += delta.text;
    if (delta.type === 'input_json_delta') block.json = (block.json ?? '') + delta.partial_json;
  }
  for (const block of blocks) {
    if (block.type !== 'tool_use') continue;
    block.input = block.json ? JSON.parse(block.json) : {};
    delete block.json;
  }
  return { content: blocks };
}
