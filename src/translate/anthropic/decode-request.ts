/** Messages-protocol request -> canonical request. */
import type { CanonicalMessage, CanonicalRequest, CanonicalTool, ContentPart, ImagePart, TextPart, ToolChoice } from '../canonical.ts';
import type { DecodeOptions } from '../adapter.ts';
import { checkUnknownFields, type FieldPolicy } from '../field-policy.ts';
import { assertRecord, isRecord, readNumber, readStopSequences } from '../helpers.ts';

const KNOWN = new Set([
  'model', 'messages', 'system', 'max_tokens', 'stop_sequences', 'temperature', 'top_p', 'top_k', 'stream',
  'tools', 'tool_choice', 'metadata', 'output_config',
]);
const BOOKKEEPING = new Set(['service_tier', 'inference_geo', 'container']);

/** Reads a messages request body into the canonical shape (see field-policy.ts for the drop rule). */
export function decodeAnthropicRequest(body: unknown, options: DecodeOptions): CanonicalRequest {
  assertRecord(body);
  const { policy } = options;
  checkUnknownFields(body, KNOWN, BOOKKEEPING, policy);
  const system: string[] = [];
  const top = readSystem(body.system);
  if (top) system.push(top);
  const messages = readMessages(Array.isArray(body.messages) ? body.messages : [], system, policy);
  const choice = body.tool_choice;
  return {
    system: system.length > 0 ? system.join('\n\n') : undefined,
    messages,
    tools: readTools(body.tools, policy),
    toolChoice: readToolChoice(choice),
    parallelToolCalls: isRecord(choice) && choice.disable_parallel_tool_use === true ? false : undefined,
    stopSequences: readStopSequences(body.stop_sequences),
    maxTokens: readNumber(body.max_tokens),
    temperature: readNumber(body.temperature),
    topP: readNumber(body.top_p),
    topK: readNumber(body.top_k),
    responseFormat: readOutputFormat(body.output_config, policy),
    user: isRecord(body.metadata) && typeof body.metadata.user_id === 'string' ? body.metadata.user_id : undefined,
    stream: options.stream ?? body.stream === true,
    includeUsage: false,
  };
}

function readSystem(system: unknown): string {
  if (typeof system === 'string') return system;
  if (!Array.isArray(system)) return '';
  return system.filter((block) => isRecord(block) && typeof block.text === 'string').map((block) => block.text).join('\n\n');
}

function readMessages(list: unknown[], system: string[], policy: FieldPolicy): CanonicalMessage[] {
  const messages: CanonicalMessage[] = [];
  list.forEach((message, i) => {
    if (!isRecord(message)) return;
    if (message.role === 'system') {
      system.push(readSystem(message.content));
      return;
    }
    const role = message.role === 'assistant' ? 'assistant' : 'user';
    messages.push({ role, content: readBlocks(message.content, `messages[${i}]`, policy) });
  });
  return messages;
}

const SILENT_BLOCKS = new Set(['thinking', 'redacted_thinking']);

function readBlocks(content: unknown, where: string, policy: FieldPolicy): ContentPart[] {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  if (!Array.isArray(content)) return [];
  const parts: ContentPart[] = [];
  content.forEach((block, j) => {
    if (!isRecord(block)) return;
    const at = `${where}.content[${j}]`;
    if (block.type === 'text' && typeof block.text === 'string') parts.push({ type: 'text', text: block.text });
    else if (block.type === 'image') pushImage(parts, block, at, policy);
    else if (block.type === 'tool_use') {
      parts.push({ type: 'tool_call', id: String(block.id ?? ''), name: String(block.name ?? ''), arguments: JSON.stringify(block.input ?? {}) });
    } else if (block.type === 'tool_result') {
      parts.push({
        type: 'tool_result',
        toolCallId: String(block.tool_use_id ?? ''),
        content: readResultContent(block.content, at, policy),
        ...(block.is_error === true ? { isError: true } : {}),
      });
    } else if (SILENT_BLOCKS.has(block.type)) {
      policy.ignore(at);
    } else {
      policy.drop(at, `'${String(block.type)}' blocks have no equivalent`);
    }
  });
  return parts;
}

function pushImage(parts: ContentPart[], block: Record<string, any>, at: string, policy: FieldPolicy): void {
  const source = block.source;
  if (isRecord(source) && source.type === 'base64' && typeof source.data === 'string') {
    parts.push({ type: 'image', source: { kind: 'base64', mediaType: String(source.media_type ?? 'image/png'), data: source.data } });
  } else if (isRecord(source) && source.type === 'url' && typeof source.url === 'string') {
    parts.push({ type: 'image', source: { kind: 'url', url: source.url } });
  } else {
    policy.drop(at, 'only base64 and URL images can be translated');
  }
}

function readResultContent(content: unknown, at: string, policy: FieldPolicy): Array<TextPart | ImagePart> {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  if (!Array.isArray(content)) return [];
  const parts: Array<TextPart | ImagePart> = [];
  for (const block of content) {
    if (!isRecord(block)) continue;
    if (block.type === 'text' && typeof block.text === 'string') parts.push({ type: 'text', text: block.text });
    else if (block.type === 'image') pushImage(parts, block, at, policy);
    else policy.drop(at, `'${String(block.type)}' tool result blocks have no equivalent`);
  }
  return parts;
}

function readTools(tools: unknown, policy: FieldPolicy): CanonicalTool[] | undefined {
  if (!Array.isArray(tools) || tools.length === 0) return undefined;
  const list: CanonicalTool[] = [];
  tools.forEach((tool, i) => {
    const custom = isRecord(tool) && (tool.type === undefined || tool.type === null || tool.type === 'custom');
    if (!custom || typeof tool.name !== 'string') {
      policy.drop(`tools[${i}]`, 'server tools have no equivalent');
      return;
    }
    list.push({
      name: tool.name,
      description: typeof tool.description === 'string' ? tool.description : undefined,
      parameters: isRecord(tool.input_schema) ? tool.input_schema : { type: 'object', properties: {} },
    });
  });
  return list.length > 0 ? list : undefined;
}

function readToolChoice(choice: unknown): ToolChoice | undefined {
  if (!isRecord(choice)) return undefined;
  if (choice.type === 'auto' || choice.type === 'none') return { type: choice.type };
  if (choice.type === 'any') return { type: 'required' };
  if (choice.type === 'tool' && typeof choice.name === 'string') return { type: 'tool', name: choice.name };
  return undefined;
}

function readOutputFormat(config: unknown, policy: FieldPolicy): CanonicalRequest['responseFormat'] {
  if (!isRecord(config)) return undefined;
  for (const key of Object.keys(config)) {
    if (key !== 'format' && config[key] !== null && config[key] !== undefined) policy.drop(`output_config.${key}`);
  }
  const format = config.format;
  if (isRecord(format) && format.type === 'json_schema' && isRecord(format.schema)) return { type: 'json_schema', schema: format.schema };
  return undefined;
}
