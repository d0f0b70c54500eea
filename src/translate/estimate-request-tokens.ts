import { estimateTokens } from '../runtime/estimate-usage.ts';
import type { CanonicalRequest } from './canonical.ts';

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
