/**
 * The input tokens of a canonical chat request by the gateway's tokenizer (estimate-usage.ts), for
 * count_tokens on vendors without a counting endpoint. The text counted is the system prompt, every
 * text part, tool call (name and arguments), tool result and tool declaration (name, description, JSON
 * Schema); each message adds {@link MESSAGE_TOKENS} for its framing and each image {@link IMAGE_TOKENS}.
 * It is an estimate: vendors tokenize differently and frame messages and tools their own way.
 */
import { estimateTextTokens } from '../runtime/estimate-usage.ts';
import type { CanonicalRequest, ContentPart } from './canonical.ts';

/** Framing tokens per message (role and separators, as chat formats add them). */
export const MESSAGE_TOKENS = 4;

/** Tokens counted for one image whatever its size (a mid-size image on current vendors). */
export const IMAGE_TOKENS = 765;

/** Estimated input tokens of `request`. */
export async function estimateRequestTokens(request: CanonicalRequest): Promise<number> {
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
  }
}
