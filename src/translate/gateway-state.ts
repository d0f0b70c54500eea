/**
 * Translators for a client style's stateful operations onto a vendor of the style's own protocol that
 * keeps no state (YAML `responses: { state: gateway }`): the Responses API on an OpenAI-compatible vendor
 * without Responses state (or without the Responses API) is served as chat completions, the gateway keeping
 * the state, exactly as on Anthropic and Gemini vendors. Built once at load.
 */
import type { Operation, Protocol, Style } from '../config/types.ts';
import { responsesState } from '../responses-state/responses-state.ts';
import type { OpHandler } from '../runtime/types.ts';
import { createTranslationHandler } from './handler.ts';
import { openAIChatAdapter } from './openai-chat/index.ts';
import { responsesAdapter } from './openai-responses/index.ts';

const HANDLERS = new Map<string, OpHandler>([
  ['openai responses openai', createTranslationHandler('openai', responsesAdapter, openAIChatAdapter, undefined, responsesState)],
]);

/** The handler serving `op` of a `style` client on a same-protocol vendor that keeps no state, or undefined. */
export function getStatefulTranslator(op: Operation, style: Style, protocol: Protocol): OpHandler | undefined {
  return HANDLERS.get(`${style} ${op} ${protocol}`);
}
