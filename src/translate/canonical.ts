/**
 * The canonical chat shape every protocol adapter decodes to and encodes from. N adapters (one per
 * protocol or client style) serve N x N translation pairs through it. It holds no vendor or model names.
 *
 * Conventions:
 * - Tool results travel inside `user` messages as `tool_result` parts (as on two of the three protocols);
 *   the chat-completions adapter turns them into `tool` role messages and back.
 * - Tool call arguments are JSON text (as streamed); adapters that need an object parse them.
 * - Usage counts follow one meaning whatever the vendor: `inputTokens` includes cached and cache-write
 *   tokens, `outputTokens` includes reasoning tokens.
 * - Prompt-cache breakpoints (`cacheControl`, the messages protocol's `cache_control` object) may sit on
 *   content parts, tools and the end of the system prompt; only a protocol with explicit breakpoints
 *   writes them (see cache-control.ts).
 * - Reasoning (see reasoning-signature.ts and the README's "Reasoning"): `reasoning` parts hold the
 *   model's thinking text, the opaque `signature` a vendor needs back to verify it, or a vendor's
 *   `redacted` (encrypted) thinking; a tool call may carry the signature of the thought that made it.
 *   `origin` names the target that made a signature (a digest of `<protocol>:<vendor>`); a signature whose origin is
 *   not the target of the next turn is stripped before encoding.
 */

/** A prompt-cache breakpoint as the messages protocol writes it (e.g. `{type: "ephemeral", ttl: "1h"}`). */
export type CacheControl = Record<string, unknown>;

/** Why generation stopped. Vendor values outside this set map to `other`. */
export type FinishReason = 'stop' | 'length' | 'tool_calls' | 'content_filter' | 'other';

/** A text part. */
export interface TextPart {
  type: 'text';
  text: string;
  /**
   * The signature of the thought behind the text (the generate-content protocol's `thoughtSignature` on a
   * plain text part: optional to send back, by its documentation, but kept for the vendor that made it).
   */
  signature?: string;
  /** The target that made `signature`. */
  origin?: string;
  cacheControl?: CacheControl;
}

/** Where an image comes from: a URL (http(s)) or inline base64 bytes with their media type. */
export type ImageSource =
  | { kind: 'url'; url: string }
  | { kind: 'base64'; mediaType: string; data: string };

/** An image part (user content, or tool result content). */
export interface ImagePart {
  type: 'image';
  source: ImageSource;
  /** The chat-completions `detail` hint (low/high/auto), when the client sent one. */
  detail?: string;
  cacheControl?: CacheControl;
}

/** A tool call made by the assistant; `arguments` is JSON text. */
export interface ToolCallPart {
  type: 'tool_call';
  id: string;
  name: string;
  arguments: string;
  /** The signature of the thought behind the call (the generate-content protocol's `thoughtSignature`). */
  signature?: string;
  /** The target that made `signature`. */
  origin?: string;
  cacheControl?: CacheControl;
}

/** Reasoning of an assistant turn: thinking text with its signature, or redacted (encrypted) thinking. */
export interface ReasoningPart {
  type: 'reasoning';
  /** Thinking (or summary) text; '' for redacted thinking or a bare signature. */
  text: string;
  /** The vendor's opaque signature of the thinking, sent back with it on the next turn. */
  signature?: string;
  /** The vendor's encrypted thinking (the messages protocol's `redacted_thinking.data`). */
  redacted?: string;
  /** The target that made `signature` or `redacted`. */
  origin?: string;
  /** Set while decoding only: the signature belongs to this tool call (see reasoning-parts.ts). */
  callId?: string;
  /** Set while decoding only: the signature belongs to the text before it (see reasoning-parts.ts). */
  forText?: boolean;
  cacheControl?: CacheControl;
}

/** The result of a tool call, sent back by the client in a user message. */
export interface ToolResultPart {
  type: 'tool_result';
  toolCallId: string;
  /** Tool name when the client's protocol carries it (the generate-content protocol needs it). */
  name?: string;
  content: Array<TextPart | ImagePart>;
  isError?: boolean;
  cacheControl?: CacheControl;
}

/** Any part of a message. */
export type ContentPart = TextPart | ImagePart | ToolCallPart | ToolResultPart | ReasoningPart;

/** A part of an answer. */
export type AnswerPart = TextPart | ToolCallPart | ReasoningPart;

/** Effort levels of reasoning (the chat-completions and responses `effort` values, `minimal` read as low). */
export type ReasoningEffort = 'low' | 'medium' | 'high';

/**
 * What the client asked of reasoning. `enabled: false` switches it off (effort `none`, thinking
 * disabled, a zero budget); an effort or a budget (or both) sets how much; `include` asks for the
 * thinking text back (summary, `includeThoughts`); absent: the style's default.
 */
export interface ReasoningRequest {
  enabled: boolean;
  effort?: ReasoningEffort;
  /** Tokens; -1 = let the model decide (the generate-content protocol's dynamic budget). */
  budgetTokens?: number;
  include?: boolean;
}

/** One conversation turn. System prompts are not messages: see {@link CanonicalRequest.system}. */
export interface CanonicalMessage {
  role: 'user' | 'assistant';
  content: ContentPart[];
}

/** A function the model may call; `parameters` is a JSON Schema object. */
export interface CanonicalTool {
  name: string;
  description?: string;
  parameters: Record<string, unknown>;
  cacheControl?: CacheControl;
}

/** Whether and which tool the model must call. */
export type ToolChoice =
  | { type: 'auto' }
  | { type: 'none' }
  | { type: 'required' }
  | { type: 'tool'; name: string };

/** Requested output format (JSON mode / structured output). */
export interface ResponseFormat {
  type: 'text' | 'json_object' | 'json_schema';
  name?: string;
  schema?: Record<string, unknown>;
  strict?: boolean;
}

/** A chat request in canonical form. */
export interface CanonicalRequest {
  /** System and developer instructions, joined in order. */
  system?: string;
  /** A prompt-cache breakpoint at the end of the system prompt (the last one the client set there). */
  systemCacheControl?: CacheControl;
  messages: CanonicalMessage[];
  tools?: CanonicalTool[];
  toolChoice?: ToolChoice;
  /** `false` asks for at most one tool call per turn. */
  parallelToolCalls?: boolean;
  stopSequences?: string[];
  maxTokens?: number;
  temperature?: number;
  topP?: number;
  topK?: number;
  presencePenalty?: number;
  frequencyPenalty?: number;
  seed?: number;
  responseFormat?: ResponseFormat;
  /** End-user identifier. */
  user?: string;
  reasoning?: ReasoningRequest;
  stream: boolean;
  /** The client asked for usage in its stream (chat-completions `stream_options.include_usage`). */
  includeUsage: boolean;
}

/** Token counts (see the module comment for their meaning). */
export interface CanonicalUsage {
  inputTokens?: number;
  outputTokens?: number;
  totalTokens?: number;
  /** Input tokens read from a prompt cache (part of `inputTokens`). */
  cachedInputTokens?: number;
  /** Input tokens written to a prompt cache (part of `inputTokens`). */
  cacheCreationInputTokens?: number;
  /** Output tokens spent on reasoning (part of `outputTokens`). */
  reasoningTokens?: number;
}

/** A complete (non-streamed) chat answer. */
export interface CanonicalResponse {
  id?: string;
  model?: string;
  content: AnswerPart[];
  finishReason: FinishReason;
  /** The stop sequence that ended generation, when the vendor says which. */
  stopSequence?: string;
  usage: CanonicalUsage;
}

/** A vendor error read from its body (or from an in-stream error event). */
export interface VendorError {
  status: number;
  /** The vendor's own error type or code (e.g. `rate_limit_error`, `RESOURCE_EXHAUSTED`). */
  type: string;
  message: string;
  /** The vendor rejected the gateway's credentials (its message may echo key fragments). */
  authFailure?: boolean;
  /** The request field the error is about, when the vendor named one (OpenAI `param`). */
  param?: string;
}

/**
 * One step of a streamed answer. Tool calls are numbered 0, 1, ... in the order they start; a text
 * event after a tool call (or a tool call after text) begins a new content block.
 */
export type StreamEvent =
  | { type: 'start'; id?: string; model?: string }
  | { type: 'text'; text: string }
  /** The signature of the text streamed so far (generate-content sends it on a text part, maybe empty). */
  | { type: 'text_signature'; signature: string; origin?: string }
  | { type: 'tool_call_start'; index: number; id: string; name: string; signature?: string; origin?: string }
  /** Thinking text; a reasoning event after a signature (or after other content) begins a new block. */
  | { type: 'reasoning'; text: string }
  /** The signature that closes the current thinking block. */
  | { type: 'reasoning_signature'; signature: string; origin?: string }
  /** A whole redacted thinking block. */
  | { type: 'reasoning_redacted'; data: string; origin?: string }
  | { type: 'tool_call_delta'; index: number; arguments: string }
  | { type: 'finish'; reason: FinishReason; stopSequence?: string }
  /** Counts known so far; later values replace earlier ones field by field. */
  | { type: 'usage'; usage: CanonicalUsage }
  | { type: 'error'; error: VendorError };

/** Merges `next` over `base` field by field (a stream's usage arrives in pieces). */
export function mergeUsage(base: CanonicalUsage, next: CanonicalUsage): CanonicalUsage {
  // Field by field (called for every usage event of a stream: no entries array per call).
  const merged: CanonicalUsage = { ...base };
  if (next.inputTokens !== undefined) merged.inputTokens = next.inputTokens;
  if (next.outputTokens !== undefined) merged.outputTokens = next.outputTokens;
  if (next.totalTokens !== undefined) merged.totalTokens = next.totalTokens;
  if (next.cachedInputTokens !== undefined) merged.cachedInputTokens = next.cachedInputTokens;
  if (next.cacheCreationInputTokens !== undefined) merged.cacheCreationInputTokens = next.cacheCreationInputTokens;
  if (next.reasoningTokens !== undefined) merged.reasoningTokens = next.reasoningTokens;
  return merged;
}

/** `totalTokens` when the vendor reported it, else input + output. */
export function getTotalTokens(usage: CanonicalUsage): number {
  return usage.totalTokens ?? (usage.inputTokens ?? 0) + (usage.outputTokens ?? 0);
}
