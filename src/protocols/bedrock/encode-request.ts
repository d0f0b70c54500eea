/** Canonical request -> Bedrock Converse request (`/model/{modelId}/converse[-stream]`). */
import { GatewayError } from '../../errors.ts';
import type { EncodeOptions, VendorCall } from '../../translate/adapter.ts';
import { placeCacheBreakpoints } from '../../translate/cache-control.ts';
import type { CanonicalRequest, ContentPart, ImagePart, ReasoningPart, TextPart } from '../../translate/canonical.ts';
import { joinTurns, parseToolArguments } from '../../translate/helpers.ts';
import { fitConverseThinkingSampling, writeConverseThinking } from './write-thinking.ts';

type Block = Record<string, unknown>;

const CACHE_POINT: Block = { cachePoint: { type: 'default' } };

/**
 * Builds the Converse call. The model id is URL-encoded into the path (ids hold `:` and inference-profile
 * ARNs hold `/`); streaming is the `converse-stream` path. Consecutive turns of one role are merged, empty
 * text and empty turns are left out, and tool results lead their user turn (the API rejects the rest).
 * Prompt-cache breakpoints become `cachePoint` blocks after the marked block; reasoning is asked for in
 * `additionalModelRequestFields` (write-thinking.ts) and sent back as `reasoningContent`; fields Converse has no
 * common place for (top-k, penalties, seed, response format, end user) are dropped by the field policy.
 */
export function encodeConverseRequest(client: CanonicalRequest, options: EncodeOptions): VendorCall {
  const { policy } = options;
  const request = options.cache === 'auto' ? placeCacheBreakpoints(client) : client;
  const body: Record<string, unknown> = { messages: writeMessages(request) };
  if (request.system) body.system = [{ text: request.system }, ...(request.systemCacheControl ? [CACHE_POINT] : [])];
  const inference: Record<string, unknown> = {};
  if (request.maxTokens !== undefined) inference.maxTokens = request.maxTokens;
  if (request.temperature !== undefined) inference.temperature = request.temperature;
  if (request.topP !== undefined) inference.topP = request.topP;
  if (request.stopSequences) inference.stopSequences = request.stopSequences;
  if (Object.keys(inference).length > 0) body.inferenceConfig = inference;
  writeConverseThinking(body, request, options);
  for (const field of ['topK', 'presencePenalty', 'frequencyPenalty', 'seed', 'user'] as const) {
    if (request[field] !== undefined) policy.drop(field);
  }
  if (request.responseFormat && request.responseFormat.type !== 'text') policy.drop('responseFormat');
  if (request.parallelToolCalls === false && request.tools) policy.drop('parallelToolCalls');
  const toolConfig = writeToolConfig(request, policy);
  if (toolConfig) body.toolConfig = toolConfig;
  fitConverseThinkingSampling(body, request, policy);
  const action = request.stream ? 'converse-stream' : 'converse';
  const accept = request.stream ? 'application/vnd.amazon.eventstream' : 'application/json';
  return { path: `/model/${encodeModelId(options.model)}/${action}`, body, headers: { accept } };
}

/** A model id as the AWS SDK puts it in the path: every reserved character escaped, `!'()*` too. */
function encodeModelId(id: string): string {
  return encodeURIComponent(id).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

function writeToolConfig(request: CanonicalRequest, policy: EncodeOptions['policy']): Block | undefined {
  if (!request.tools || request.tools.length === 0) return undefined;
  const { toolChoice } = request;
  // Converse has no "none": without tool turns in the history the tools are left out, else the choice is dropped.
  if (toolChoice?.type === 'none' && !hasToolParts(request)) return undefined;
  const tools: Block[] = [];
  for (const tool of request.tools) {
    const spec: Block = { name: tool.name, inputSchema: { json: { type: 'object', ...tool.parameters } } };
    if (tool.description !== undefined) spec.description = tool.description;
    tools.push({ toolSpec: spec });
    if (tool.cacheControl) tools.push(CACHE_POINT);
  }
  const config: Block = { tools };
  if (toolChoice?.type === 'auto') config.toolChoice = { auto: {} };
  else if (toolChoice?.type === 'required') config.toolChoice = { any: {} };
  else if (toolChoice?.type === 'tool') config.toolChoice = { tool: { name: toolChoice.name } };
  else if (toolChoice?.type === 'none') policy.drop('toolChoice');
  return config;
}

function hasToolParts(request: CanonicalRequest): boolean {
  return request.messages.some((m) => m.content.some((part) => part.type === 'tool_call' || part.type === 'tool_result'));
}

/** A message's Converse blocks, each marked block followed by a cache point. */
function writeBlocks(content: readonly ContentPart[]): Block[] {
  const blocks: Block[] = [];
  for (const part of content) {
    const block = writeBlock(part);
    if (!block) continue;
    blocks.push(block);
    if (part.cacheControl) blocks.push(CACHE_POINT);
  }
  return blocks;
}

function writeMessages(request: CanonicalRequest): Array<{ role: string; content: Block[] }> {
  return joinTurns(request.messages, writeBlocks, (block) => 'toolResult' in block);
}

function writeBlock(part: ContentPart): Block | undefined {
  switch (part.type) {
    case 'text':
      return part.text ? { text: part.text } : undefined;
    case 'image':
      return writeImage(part);
    case 'tool_call':
      return { toolUse: { toolUseId: part.id, name: part.name, input: parseToolArguments(part.arguments, 'messages') } };
    case 'reasoning':
      return writeReasoning(part);
    case 'tool_result': {
      const content = part.content.filter((item) => item.type === 'image' || item.text).map((item) => (item.type === 'text' ? writeText(item) : writeImage(item)));
      const result: Block = { toolUseId: part.toolCallId, content: content.length > 0 ? content : [{ text: '' }] };
      if (part.isError) result.status = 'error';
      return { toolResult: result };
    }
  }
}

/**
 * An assistant turn's reasoning as a `reasoningContent` block: signed text (`reasoningText`) or redacted
 * bytes (`redactedContent`, base64 as on the wire). Unsigned reasoning has nothing the vendor can verify
 * and is left out (a foreign signature was stripped before).
 */
function writeReasoning(part: ReasoningPart): Block | undefined {
  if (part.redacted !== undefined) return { reasoningContent: { redactedContent: part.redacted } };
  return part.signature ? { reasoningContent: { reasoningText: { text: part.text, signature: part.signature } } } : undefined;
}

function writeText(part: TextPart): Block {
  return { text: part.text };
}

const IMAGE_FORMATS: Record<string, string> = { 'image/png': 'png', 'image/jpeg': 'jpeg', 'image/jpg': 'jpeg', 'image/gif': 'gif', 'image/webp': 'webp' };

/** Converse takes image bytes inline (or from S3, which a client cannot name): an image URL is refused. */
function writeImage(part: ImagePart): Block {
  const { source } = part;
  const format = source.kind === 'base64' ? IMAGE_FORMATS[source.mediaType.toLowerCase()] : undefined;
  if (source.kind === 'url' || !format) {
    throw new GatewayError(400, 'unsupported_parameter', 'The vendor of this model takes images as inline base64 data (png, jpeg, gif or webp), not as URLs.', { param: 'messages' });
  }
  return { image: { format, source: { bytes: source.data } } };
}
