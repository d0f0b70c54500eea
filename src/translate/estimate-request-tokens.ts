import { estimateTextTokens, estimateTokens } from '../spend/estimate-tokens.ts';
import type { CanonicalRequest, ContentPart } from './canonical.ts';

/**
 * The input tokens of a request as the gateway estimates them (through the shared estimator of
 * src/runtime/estimate-usage.ts), from the text the model reads: system prompt, message text, tool calls
 * and results, tool definitions. Images count nothing. Used where a client reads the input count before
 * the vendor reported it (a messages stream's `message_start`).
 */
export function estimateRequestTokens(request: CanonicalRequest): number {
  let bytes = request.system ? Buffer.byteLength(request.system) : 0;
  for (const message of request.messages) {
    for (const part of message.content) {
      if (part.type === 'text') bytes += Buffer.byteLength(part.text);
      else if (part.type === 'tool_call') bytes += Buffer.byteLength(part.name) + Buffer.byteLength(part.arguments);
      else if (part.type === 'tool_result') {
        for (const inner of part.content) if (inner.type === 'text') bytes += Buffer.byteLength(inner.text);
      }
    }
  }
  if (request.tools) bytes += Buffer.byteLength(JSON.stringify(request.tools));
  return estimateTokens(bytes);
}

/** Framing tokens per message (role and separators, as chat formats add them). */
export const MESSAGE_TOKENS = 4;

/** Tokens counted for one image whatever its size (a mid-size image on current vendors). */
export const IMAGE_TOKENS = 765;

/**
 * The input tokens of a canonical chat request by the gateway's tokenizer (estimate-usage.ts; async: it
 * may load it first), for count_tokens on vendors without a counting endpoint. The text counted is the system prompt, every
 * text part, tool call (name and arguments), tool result and tool declaration (name, description, JSON
 * Schema); each message adds {@link MESSAGE_TOKENS} for its framing and each image {@link IMAGE_TOKENS}.
 * It is an estimate: vendors tokenize differently and frame messages and tools their own way.
 */
export async function countRequestTokens(request: CanonicalRequest): Promise<number> {
  const texts: string[] = [];
  let fixed = 0;
  if (request.system) {
    texts.push(request.system);
    fixed += MESSAGE_TOKENS;
  }
  for (const message of request.messages) {
    fixed += MESSAGE_TOKENS;
    for (const part of message.content) fixed += collectPart(part, texts);
  }
  for (const tool of request.tools ?? []) texts.push(tool.name, tool.description ?? '', JSON.stringify(tool.parameters));
  return fixed + (await estimateTextTokens(texts.join('\n')));
}

/** Pushes the text of a part; returns its fixed token count (images). */
function collectPart(part: ContentPart, texts: string[]): number {
  switch (part.type) {
    case 'text':
      texts.push(part.text);
      return 0;
    case 'image':
      return IMAGE_TOKENS;
    case 'tool_call':
      texts.push(part.name, part.arguments);
      return 0;
    case 'tool_result':
      return part.content.reduce((sum, item) => sum + collectPart(item, texts), 0);
    case 'reasoning':
      texts.push(part.text);
      return 0;
  }
}
