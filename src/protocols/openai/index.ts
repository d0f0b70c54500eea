import { decodeOpenAIError } from './chat/response.ts';
import { isRecord, readNumber } from '../../translate/helpers.ts';
import type { ProtocolAdapter, Usage } from '../types.ts';
import { SIMULATOR_KEY } from './simulator/key.ts';
import type { OpenAISimulator } from './simulator/index.ts';
import { completionsAdapter } from './completions/index.ts';
import { openAIChatAdapter } from './chat/index.ts';
import { responsesAdapter } from './responses/index.ts';

/**
 * Reads OpenAI usage: chat/completions/embeddings (`prompt_tokens`...), responses (`input_tokens`...) and a
 * transcription's audio duration (`{type: "duration", seconds}`, as whisper-1 reports it). A count that is not
 * a finite number is no count: the answer is a vendor's, and any JSON may sit where a count belongs.
 */
function readUsage(json: any): Usage | undefined {
  const usage = json?.usage ?? json?.response?.usage;
  if (!isRecord(usage)) return undefined;
  if (usage.type === 'duration') {
    const seconds = readNumber(usage.seconds);
    return seconds === undefined ? undefined : { audioSeconds: seconds };
  }
  const input = readNumber(usage.prompt_tokens ?? usage.input_tokens);
  const output = readNumber(usage.completion_tokens ?? usage.output_tokens);
  return {
    inputTokens: input,
    outputTokens: output,
    totalTokens: readNumber(usage.total_tokens) ?? (input !== undefined ? input + (output ?? 0) : undefined),
    cachedInputTokens: readNumber(usage.prompt_tokens_details?.cached_tokens ?? usage.input_tokens_details?.cached_tokens),
    reasoningTokens: readNumber(usage.completion_tokens_details?.reasoning_tokens ?? usage.output_tokens_details?.reasoning_tokens),
  };
}

const INCLUDE_USAGE = Buffer.from(',"stream_options":{"include_usage":true}');

/** The OpenAI protocol (and every OpenAI-compatible vendor): `/v1/*` endpoints forwarded as they are. */
export const openaiAdapter: ProtocolAdapter<OpenAISimulator> = {
  protocol: 'openai',
  style: 'openai',
  passthrough: {
    chat: { method: 'POST', path: '/chat/completions', model: 'body' },
    responses: { method: 'POST', path: '/responses', model: 'body' },
    'responses-compact': { method: 'POST', path: '/responses/compact', model: 'body' },
    'responses-get': { method: 'GET', path: '/responses/{response_id}', model: 'none' },
    'responses-delete': { method: 'DELETE', path: '/responses/{response_id}', model: 'none' },
    'responses-input-items': { method: 'GET', path: '/responses/{response_id}/input_items', model: 'none' },
    completions: { method: 'POST', path: '/completions', model: 'body' },
    embeddings: { method: 'POST', path: '/embeddings', model: 'body' },
    rerank: { method: 'POST', path: '/rerank', model: 'body' },
    'images-generations': { method: 'POST', path: '/images/generations', model: 'body' },
    'images-edits': { method: 'POST', path: '/images/edits', model: 'body' },
    'audio-speech': { method: 'POST', path: '/audio/speech', model: 'body' },
    'audio-transcriptions': { method: 'POST', path: '/audio/transcriptions', model: 'body' },
    'audio-translations': { method: 'POST', path: '/audio/translations', model: 'body' },
    'videos-create': { method: 'POST', path: '/videos', model: 'body' },
    'videos-get': { method: 'GET', path: '/videos/{task_id}', model: 'none' },
    'videos-content': { method: 'GET', path: '/videos/{task_id}/content', model: 'none' },
    'videos-delete': { method: 'DELETE', path: '/videos/{task_id}', model: 'none' },
    'videos-remix': { method: 'POST', path: '/videos/{task_id}/remix', model: 'none' },
    moderations: { method: 'POST', path: '/moderations', model: 'body' },
    realtime: { method: 'GET', path: '/realtime', model: 'none' },
  },
  requestHeaders: ['content-type', 'accept', 'openai-beta'],
  readUsage,
  usageFields: ['usage'],
  finishReasonFields: ['finish_reason'],
  askForStreamUsage(op, body, raw) {
    if ((op !== 'chat' && op !== 'completions') || body?.stream !== true || body.stream_options?.include_usage) return undefined;
    // A `stream_options` key already there (an object, or null) is replaced, not followed by a second one.
    if (body.stream_options !== undefined) return JSON.stringify({ ...body, stream_options: { ...body.stream_options, include_usage: true } });
    // The common case: splice the field in before the closing brace instead of re-serialising the body.
    const close = raw.lastIndexOf(0x7d);
    return Buffer.concat([raw.subarray(0, close), INCLUDE_USAGE, raw.subarray(close)]);
  },
  isUsageOnlyEvent: (json) => Array.isArray(json?.choices) && json.choices.length === 0 && json.usage != null,
  askedUsageLeavesNull: true,
  readError: decodeOpenAIError,
  requestFacts: { maxTokensField: 'max_completion_tokens', ranges: { temperature: { min: 0, max: 2 }, topP: { min: 0, max: 1 } } },
  chat: openAIChatAdapter,
  clients: {
    chat: { adapter: openAIChatAdapter },
    responses: { adapter: responsesAdapter, gatewayState: true },
    completions: { adapter: completionsAdapter },
  },
  refusedWhenTranslated: {
    // `/v1/responses/compact` needs the vendor's stored responses; translated vendors keep none.
    'responses-compact': {
      message: "Compacting a response needs a vendor that keeps response state ('previous_response_id'); the vendor of this model does not.",
      param: 'previous_response_id',
    },
  },
  simulator: { key: SIMULATOR_KEY, load: async () => (await import('./simulator/index.ts')).startOpenAISimulator },
};
