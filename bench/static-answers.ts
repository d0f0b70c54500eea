/**
 * The static vendor's canned answers, serialized once at start-up: an OpenAI chat completion, the same
 * answer as an OpenAI chat SSE stream (with and without the usage chunk `stream_options.include_usage`
 * asks for), an Anthropic message and its messages SSE stream, and a transcription. The text and event
 * counts are those the built-in simulators answer the bench's chat body with, so the streams carry as
 * many content events whether they are passed through or translated.
 */

/** The answer's text, one piece per content event. */
const PIECES = ['Echo:', ' Write', ' one', ' sentence', ' about', ' the', ' sea', ' at', ' night,', ' with', ' the', ' moon', ' on', ' the', ' water.'];
const TEXT = PIECES.join('');
const CREATED = 1795500000;
const PROMPT_TOKENS = 21;
const COMPLETION_TOKENS = PIECES.length;

/** Content events in each canned stream (OpenAI content chunks, Anthropic text deltas). */
export const STREAM_CONTENT_EVENTS = PIECES.length;

/** Every canned answer body, byte for byte. */
export interface StaticAnswers {
  chat: Buffer;
  chatStream: Buffer;
  chatStreamWithUsage: Buffer;
  message: Buffer;
  messageStream: Buffer;
  transcription: Buffer;
}

const OPENAI_USAGE =
  `{"prompt_tokens":${PROMPT_TOKENS},"completion_tokens":${COMPLETION_TOKENS},"total_tokens":${PROMPT_TOKENS + COMPLETION_TOKENS},` +
  '"prompt_tokens_details":{"cached_tokens":0,"audio_tokens":0},' +
  '"completion_tokens_details":{"reasoning_tokens":0,"audio_tokens":0,"accepted_prediction_tokens":0,"rejected_prediction_tokens":0}}';

const sse = (data: string, event?: string): string => (event === undefined ? `data: ${data}\n\n` : `event: ${event}\ndata: ${data}\n\n`);

function defineChat(): string {
  const message = `{"role":"assistant","content":${JSON.stringify(TEXT)},"refusal":null,"annotations":[]}`;
  return (
    `{"id":"chatcmpl-bench000001","object":"chat.completion","created":${CREATED},"model":"gpt-4o-mini","choices":[{"index":0,"message":${message},` +
    `"logprobs":null,"finish_reason":"stop"}],"usage":${OPENAI_USAGE},"service_tier":"default","system_fingerprint":"fp_bench"}`
  );
}

function defineChatStream(withUsage: boolean): string {
  const prefix = `{"id":"chatcmpl-bench000002","object":"chat.completion.chunk","created":${CREATED},"model":"gpt-4o-mini","service_tier":"default","system_fingerprint":"fp_bench","choices":[`;
  const suffix = withUsage ? ',"usage":null}' : '}';
  const chunk = (delta: string, finish = 'null') => sse(`${prefix}{"index":0,"delta":${delta},"logprobs":null,"finish_reason":${finish}}]${suffix}`);
  const events = [chunk('{"role":"assistant","content":"","refusal":null}'), ...PIECES.map((piece) => chunk(`{"content":${JSON.stringify(piece)}}`)), chunk('{}', '"stop"')];
  if (withUsage) events.push(sse(`${prefix}],"usage":${OPENAI_USAGE}}`));
  events.push('data: [DONE]\n\n');
  return events.join('');
}

function defineMessage(): string {
  return (
    `{"id":"msg_bench000001","type":"message","role":"assistant","model":"bench-claude","content":[{"type":"text","text":${JSON.stringify(TEXT)}}],` +
    `"stop_reason":"end_turn","stop_sequence":null,"usage":{"input_tokens":${PROMPT_TOKENS},"cache_creation_input_tokens":0,"cache_read_input_tokens":0,"output_tokens":${COMPLETION_TOKENS}}}`
  );
}

function defineMessageStream(): string {
  const usage = `"input_tokens":${PROMPT_TOKENS},"cache_creation_input_tokens":0,"cache_read_input_tokens":0`;
  return [
    sse(
      `{"type":"message_start","message":{"id":"msg_bench000002","type":"message","role":"assistant","model":"bench-claude","content":[],"stop_reason":null,"stop_sequence":null,"usage":{${usage},"output_tokens":1}}}`,
      'message_start',
    ),
    sse('{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}', 'content_block_start'),
    sse('{"type": "ping"}', 'ping'),
    ...PIECES.map((piece) => sse(`{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":${JSON.stringify(piece)}}}`, 'content_block_delta')),
    sse('{"type":"content_block_stop","index":0}', 'content_block_stop'),
    sse(`{"type":"message_delta","delta":{"stop_reason":"end_turn","stop_sequence":null},"usage":{${usage},"output_tokens":${COMPLETION_TOKENS}}}`, 'message_delta'),
    sse('{"type":"message_stop"}', 'message_stop'),
  ].join('');
}

/** Serializes every canned answer (once per vendor process). */
export function defineStaticAnswers(): StaticAnswers {
  return {
    chat: Buffer.from(defineChat()),
    chatStream: Buffer.from(defineChatStream(false)),
    chatStreamWithUsage: Buffer.from(defineChatStream(true)),
    message: Buffer.from(defineMessage()),
    messageStream: Buffer.from(defineMessageStream()),
    transcription: Buffer.from(`{"text":${JSON.stringify(TEXT)},"usage":{"type":"duration","seconds":3}}`),
  };
}
