/** Chat-completions request -> canonical request. */
import type { CanonicalMessage, CanonicalRequest, CanonicalTool, ContentPart, ImagePart, ResponseFormat, TextPart, ToolChoice } from '../canonical.ts';
import type { DecodeOptions } from '../adapter.ts';
import { checkUnknownFields, type FieldPolicy } from '../field-policy.ts';
import { assertRecord, isRecord, readImageUrl, readNumber, readStopSequences } from '../helpers.ts';

const KNOWN = new Set([
  'model', 'messages', 'tools', 'tool_choice', 'parallel_tool_calls', 'max_tokens', 'max_completion_tokens',
  'stop', 'temperature', 'top_p', 'n', 'stream', 'stream_options', 'user', 'response_format', 'seed',
  'presence_penalty', 'frequency_penalty',
]);
const BOOKKEEPING = new Set(['metadata', 'store', 'service_tier', 'safety_identifier', 'prompt_cache_key']);

/** Reads a chat-completions request body into the canonical shape (see field-policy.ts for the drop rule). */
export function decodeOpenAIChatRequest(body: unknown, options: DecodeOptions): CanonicalRequest {
  assertRecord(body);
  const { policy } = options;
  checkUnknownFields(body, KNOWN, BOOKKEEPING, policy);
  if (typeof body.n === 'number' && body.n > 1) policy.drop('n', 'only one choice can be generated');
  const system: string[] = [];
  const messages = readMessages(Array.isArray(body.messages) ? body.messages : [], system, policy);
  return {
    system: system.length > 0 ? system.join('\n\n') : undefined,
    messages,
    tools: readTools(body.tools, policy),
    toolChoice: readToolChoice(body.tool_choice, policy),
    parallelToolCalls: typeof body.parallel_tool_calls === 'boolean' ? body.parallel_tool_calls : undefined,
    stopSequences: readStopSequences(body.stop),
    maxTokens: readNumber(body.max_completion_tokens) ?? readNumber(body.max_tokens),
    temperature: readNumber(body.temperature),
    topP: readNumber(body.top_p),
    presencePenalty: readNumber(body.presence_penalty),
    frequencyPenalty: readNumber(body.frequency_penalty),
    seed: readNumber(body.seed),
    responseFormat: readResponseFormat(body.response_format),
    user: typeof body.user === 'string' ? body.user : undefined,
    stream: options.stream ?? body.stream === true,
    includeUsage: isRecord(body.stream_options) && body.stream_options.include_usage === true,
  };
}

function readMessages(list: unknown[], system: string[], policy: FieldPolicy): CanonicalMessage[] {
  const messages: CanonicalMessage[] = [];
  list.forEach((message, i) => {
    if (!isRecord(message)) return;
    const where = `messages[${i}]`;
    switch (message.role) {
      case 'system':
      case 'developer':
        system.push(readText(message.content));
        return;
      case 'user':
        messages.push({ role: 'user', content: readUserParts(message.content, where, policy) });
        return;
      case 'assistant':
        messages.push({ role: 'assistant', content: readAssistantParts(message, where, policy) });
        return;
      case 'tool':
        messages.push({
          role: 'user',
          content: [{ type: 'tool_result', toolCallId: String(message.tool_call_id ?? ''), content: readTextParts(message.content) }],
        });
        return;
      default:
        policy.drop(where, `the role '${String(message.role)}' has no equivalent`);
    }
  });
  return messages;
}

/** Text of a string or of a list of text parts, joined. */
function readText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.filter((part) => isRecord(part) && typeof part.text === 'string').map((part) => part.text).join('\n');
}

function readTextParts(content: unknown): TextPart[] {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  if (!Array.isArray(content)) return [];
  return content.filter((part) => isRecord(part) && typeof part.text === 'string').map((part) => ({ type: 'text', text: part.text }));
}

function readUserParts(content: unknown, where: string, policy: FieldPolicy): ContentPart[] {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  if (!Array.isArray(content)) return [];
  const parts: ContentPart[] = [];
  content.forEach((part, j) => {
    if (!isRecord(part)) return;
    if (part.type === 'text' && typeof part.text === 'string') parts.push({ type: 'text', text: part.text });
    else if (part.type === 'image_url' && isRecord(part.image_url) && typeof part.image_url.url === 'string') {
      const image: ImagePart = { type: 'image', source: readImageUrl(part.image_url.url) };
      if (typeof part.image_url.detail === 'string') image.detail = part.image_url.detail;
      parts.push(image);
    } else policy.drop(`${where}.content[${j}]`, `'${String(part.type)}' parts have no equivalent`);
  });
  return parts;
}

function readAssistantParts(message: Record<string, any>, where: string, policy: FieldPolicy): ContentPart[] {
  const parts: ContentPart[] = [];
  const text = readText(message.content) || (typeof message.refusal === 'string' ? message.refusal : '');
  if (text) parts.push({ type: 'text', text });
  if (Array.isArray(message.tool_calls)) {
    message.tool_calls.forEach((call: unknown, j: number) => {
      if (!isRecord(call) || !isRecord(call.function)) {
        policy.drop(`${where}.tool_calls[${j}]`, 'only function tool calls can be translated');
        return;
      }
      const args = call.function.arguments;
      parts.push({
        type: 'tool_call',
        id: String(call.id ?? ''),
        name: String(call.function.name ?? ''),
        arguments: typeof args === 'string' ? args : JSON.stringify(args ?? {}),
      });
    });
  }
  if (message.function_call) policy.drop(`${where}.function_call`, 'use tool_calls');
  if (message.audio) policy.drop(`${where}.audio`);
  return parts;
}

function readTools(tools: unknown, policy: FieldPolicy): CanonicalTool[] | undefined {
  if (!Array.isArray(tools) || tools.length === 0) return undefined;
  const list: CanonicalTool[] = [];
  tools.forEach((tool, i) => {
    if (!isRecord(tool) || tool.type !== 'function' || !isRecord(tool.function)) {
      policy.drop(`tools[${i}]`, 'only function tools can be translated');
      return;
    }
    const fn = tool.function;
    list.push({
      name: String(fn.name ?? ''),
      description: typeof fn.description === 'string' ? fn.description : undefined,
      parameters: isRecord(fn.parameters) ? fn.parameters : { type: 'object', properties: {} },
    });
  });
  return list.length > 0 ? list : undefined;
}

function readToolChoice(choice: unknown, policy: FieldPolicy): ToolChoice | undefined {
  if (choice === 'auto' || choice === 'none' || choice === 'required') return { type: choice };
  if (isRecord(choice) && choice.type === 'function' && isRecord(choice.function) && typeof choice.function.name === 'string') {
    return { type: 'tool', name: choice.function.name };
  }
  if (choice !== undefined && choice !== null) policy.drop('tool_choice');
  return undefined;
}

function readResponseFormat(format: unknown): ResponseFormat | undefined {
  if (!isRecord(format)) return undefined;
  if (format.type === 'json_object') return { type: 'json_object' };
  if (format.type === 'json_schema' && isRecord(format.json_schema)) {
    const spec = format.json_schema;
    return {
      type: 'json_schema',
      name: typeof spec.name === 'string' ? spec.name : undefined,
      schema: isRecord(spec.schema) ? spec.schema : undefined,
      strict: spec.strict === true ? true : undefined,
    };
  }
  return format.type === 'text' ? { type: 'text' } : undefined;
}
