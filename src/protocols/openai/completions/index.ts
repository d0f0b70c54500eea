/** The legacy completions client adapter (requests served by vendors of the chat protocols). */
import { formatSseEvent, formatSseJson } from '../../../sse/write.ts';
import type { CanonicalRequest, CanonicalResponse, CanonicalUsage, FinishReason } from '../../../translate/canonical.ts';
import { mergeUsage } from '../../../translate/canonical.ts';
import type { ClientAdapter, DecodeOptions, ResponseMeta, StreamEncoder } from '../../../translate/adapter.ts';
import { checkUnknownFields } from '../../../translate/field-policy.ts';
import { assertRecord, isRecord, withIdPrefix } from '../../../translate/helpers.ts';
import { createFieldError, readNumberField, readStopField, readStringField } from '../../../translate/read-field.ts';
import { writeOpenAIFinish, writeOpenAIUsage } from '../chat/response.ts';
import { ALL_SAMPLING_FIELDS, readSamplingFields } from '../read-sampling-fields.ts';

const KNOWN = new Set(['model', 'prompt', 'max_tokens', 'temperature', 'top_p', 'stop', 'stream', 'stream_options', 'n', 'user', 'seed', 'presence_penalty', 'frequency_penalty']);
const BOOKKEEPING = new Set(['metadata']);

/**
 * Reads a legacy completions body: the prompt becomes one user message (a list of strings is joined by
 * newlines; token-id prompts, `suffix`, `echo`, `logprobs`, `best_of` and `n` > 1 are untranslatable).
 */
function decodeCompletionsRequest(body: unknown, options: DecodeOptions): CanonicalRequest {
  assertRecord(body);
  const { policy } = options;
  checkUnknownFields(body, KNOWN, BOOKKEEPING, policy);
  if (typeof body.n === 'number' && body.n > 1) policy.drop('n', 'only one choice can be generated');
  let prompt = '';
  if (typeof body.prompt === 'string') prompt = body.prompt;
  else if (Array.isArray(body.prompt) && body.prompt.every((item: unknown) => typeof item === 'string')) prompt = body.prompt.join('\n');
  else if (Array.isArray(body.prompt) && body.prompt.every((item: unknown) => typeof item === 'number' || Array.isArray(item))) {
    policy.drop('prompt', 'token-id prompts cannot be translated');
  } else throw createFieldError('prompt', 'a string or an array of strings');
  return {
    messages: [{ role: 'user', content: [{ type: 'text', text: prompt }] }],
    stopSequences: readStopField(body.stop, 'stop'),
    maxTokens: readNumberField(body.max_tokens, 'max_tokens'),
    ...readSamplingFields(body, ALL_SAMPLING_FIELDS),
    user: readStringField(body.user, 'user'),
    stream: options.stream ?? body.stream === true,
    includeUsage: isRecord(body.stream_options) && body.stream_options.include_usage === true,
  };
}

function createChoice(text: string, finish: FinishReason | null): Record<string, unknown> {
  return { text, index: 0, logprobs: null, finish_reason: finish === null ? null : writeOpenAIFinish(finish) };
}

/** Writes a canonical answer as a `text_completion` (tool calls cannot appear: no tools were sent). */
function encodeCompletionsResponse(response: CanonicalResponse, meta: ResponseMeta): unknown {
  const text = response.content.filter((part) => part.type === 'text').map((part) => part.text).join('');
  return {
    id: withIdPrefix('cmpl-', meta.id),
    object: 'text_completion',
    created: meta.created,
    model: meta.model,
    choices: [createChoice(text, response.finishReason)],
    usage: writeOpenAIUsage(response.usage),
  };
}

/** Encodes a `text_completion` stream: text chunks, a finish chunk, the usage chunk if asked, `[DONE]`. */
function createCompletionsStreamEncoder(meta: ResponseMeta, request: CanonicalRequest): StreamEncoder {
  const id = withIdPrefix('cmpl-', meta.id);
  let usage: CanonicalUsage = {};
  let finish: FinishReason | undefined;
  const chunk = (choices: unknown[], extra: Record<string, unknown> = {}): string =>
    formatSseJson({ id, object: 'text_completion', created: meta.created, model: meta.model, choices, ...extra });
  return {
    encode(event) {
      if (event.type === 'text') return chunk([createChoice(event.text, null)]);
      if (event.type === 'finish') finish ??= event.reason;
      if (event.type === 'usage') usage = mergeUsage(usage, event.usage);
      return '';
    },
    end() {
      let text = chunk([createChoice('', finish ?? 'stop')]);
      if (request.includeUsage) text += chunk([], { usage: writeOpenAIUsage(usage) });
      return text + formatSseEvent('[DONE]');
    },
  };
}

/** Legacy completions requests, responses and streams <-> canonical (client side only). */
export const completionsAdapter: ClientAdapter = {
  fieldNames: { messages: 'prompt', seed: 'seed', presencePenalty: 'presence_penalty', frequencyPenalty: 'frequency_penalty', stopSequences: 'stop' },
  decodeRequest: decodeCompletionsRequest,
  encodeResponse: encodeCompletionsResponse,
  createStreamEncoder: createCompletionsStreamEncoder,
};
