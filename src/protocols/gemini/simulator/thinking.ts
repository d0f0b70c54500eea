/**
 * Thinking of the simulated Gemini, following Google's documented behaviour: with
 * `generationConfig.thinkingConfig` (a budget other than 0) function call parts carry a
 * `thoughtSignature`, and thought summaries come back as `thought: true` parts when `includeThoughts`
 * is set. A request whose current turn (the model turns after the last user text) has a function call
 * without its signature is refused with 400 INVALID_ARGUMENT, as the API does; the documented
 * placeholders for calls made elsewhere (`skip_thought_signature_validator`,
 * `context_engineering_is_the_way_to_go`) pass. An answer without function calls signs its text
 * (non-streamed on the text part, streamed on an empty text part in the last chunk, as documented).
 */
import { createHash } from 'node:crypto';
import { createGoogleError } from './google-error.ts';
import { countTokens, isObject, toText } from '../../../simulators/text.ts';

const PLACEHOLDERS = new Set(['skip_thought_signature_validator', 'context_engineering_is_the_way_to_go']);

/** What thinking a request switched on. */
export interface GeminiThinking {
  include: boolean;
}

/** The thinking settings of a body (undefined: thinking off or not configured). */
export function readGeminiThinking(body: Record<string, any>): GeminiThinking | undefined {
  const generation = body.generationConfig ?? body.generation_config;
  const config = generation?.thinkingConfig ?? generation?.thinking_config;
  if (!isObject(config) || (config.thinkingBudget ?? config.thinking_budget) === 0) return undefined;
  return { include: (config.includeThoughts ?? config.include_thoughts) === true };
}

/** The signature the simulator gives a call of function `name` (and checks on the way back). */
export function signGeminiCall(name: string): string {
  return createHash('sha256').update(`sim-gemini-call:${name}`).digest('base64');
}

/**
 * The signature the simulator gives an answer's text (the documented signature "inside the last part"
 * of a response without a function call). Sending it back is recommended, not required: not checked.
 */
export function signGeminiText(text: string): string {
  return createHash('sha256').update(`sim-gemini-text:${text}`).digest('base64');
}

/** The error body of a current-turn function call without a valid signature, else undefined. */
export function findSignatureProblem(body: Record<string, any>): unknown {
  if (!readGeminiThinking(body) || !Array.isArray(body.contents)) return undefined;
  const contents: any[] = body.contents;
  let start = 0;
  contents.forEach((content, i) => {
    if (content?.role !== 'model' && Array.isArray(content?.parts) && content.parts.some((p: any) => typeof p?.text === 'string')) start = i + 1;
  });
  for (let i = start; i < contents.length; i++) {
    if (contents[i]?.role !== 'model' || !Array.isArray(contents[i].parts)) continue;
    for (const [j, part] of contents[i].parts.entries()) {
      const call = part?.functionCall ?? part?.function_call;
      if (!isObject(call)) continue;
      const signature = part.thoughtSignature ?? part.thought_signature;
      if (PLACEHOLDERS.has(signature) || signature === signGeminiCall(toText(call.name))) continue;
      const what = signature === undefined ? 'is missing a thought_signature' : 'has an invalid thought_signature';
      return createGoogleError(400, 'INVALID_ARGUMENT', `Function call ${what} in functionCall parts. This is required for tools to work correctly, and missing thought_signature may lead to degraded model performance. Additional data, function call \`default_api:${call.name}\` , position ${j + 1}. Please refer to https://ai.google.dev/gemini-api/docs/thought-signatures for more details.`);
    }
  }
  return undefined;
}

/** The thought part of a reply to `text` (when thoughts are included) and the thought tokens spent. */
export function planGeminiThought(thinking: GeminiThinking, text: string): { part?: Record<string, unknown>; tokens: number } {
  const thought = `Thinking about: ${text}`.trim();
  return { part: thinking.include ? { text: thought, thought: true } : undefined, tokens: countTokens(thought) };
}
