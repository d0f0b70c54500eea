/** Chat-completions request -> canonical request. */
import type { CanonicalMessage, CanonicalRequest, CanonicalTool, ContentPart, ImagePart, ResponseFormat, TextPart, ToolChoice } from '../../../translate/canonical.ts';
import type { DecodeOptions } from '../../../translate/adapter.ts';
import { checkUnknownFields, type FieldPolicy } from '../../../translate/field-policy.ts';
import { assertRecord, isRecord, readImageUrl } from '../../../translate/helpers.ts';
import { readCacheControl } from '../../../translate/cache-control.ts';
import { readReasoningEffort } from '../../../translate/reasoning-budget.ts';
import { readAssistantReasoning, readExtraSignature } from './reasoning.ts';
import {
  isAbsent, quoteValue, readContentField, readList, readName, readNumberField, readObject, readRequiredString, readRole, readStopField, readStringField,
} from '../../../translate/read-field.ts';

const KNOWN = new Set([
  'model', 'messages', 'tools', 'tool_choice', 'parallel_tool_calls', 'max_tokens', 'max_completion_tokens',
  'stop', 'temperature', 'top_p', 'n', 'stream', 'stream_options', 'user', 'response_format', 'seed',
  'presence_penalty', 'frequency_penalty', 'reasoning_effort',
]);
const BOOKKEEPING = new Set(['metadata', 'store', 'service_tier', 'safety_identifier', 'prompt_cache_key']);
/** Roles of the chat-completions protocol; `function` (deprecated) has no equivalent and is dropped. */
const ROLES = ['system', 'developer', 'user', 'assistant', 'tool', 'function'] as const;

/** Reads a chat-completions request body into the canonical shape (see field-policy.ts for the drop rule). */
export function decodeOpenAIChatRequest(body: unknown, options: DecodeOptions): CanonicalRequest {
  assertRecord(body);
  const { policy } = options;
  checkUnknownFields(body, KNOWN, BOOKKEEPING, policy);
  if (typeof body.n === 'number' && body.n > 1) policy.drop('n', 'only one choice can be generated');
  const system: string[] = [];
  const marks: SystemMarks = {};
  const messages = readMessages(readList(body.messages, 'messages', true)!, system, policy, marks);
  // One literal with no spread in it: the properties after a spread are each defined through the
  // runtime (a lookup and a map transition apiece), which showed in the instruction counts of every
  // translated request. The sampling fields are read here in readAllSamplingFields' order.
  const request: CanonicalRequest = {
    system: system.length > 0 ? system.join('\n\n') : undefined,
    messages,
    tools: readTools(body.tools, policy),
    toolChoice: readToolChoice(body.tool_choice, policy),
    parallelToolCalls: typeof body.parallel_tool_calls === 'boolean' ? body.parallel_tool_calls : undefined,
    stopSequences: readStopField(body.stop, 'stop'),
    maxTokens: readNumberField(body.max_completion_tokens, 'max_completion_tokens') ?? readNumberField(body.max_tokens, 'max_tokens'),
    temperature: readNumberField(body.temperature, 'temperature'),
    topP: readNumberField(body.top_p, 'top_p'),
    presencePenalty: readNumberField(body.presence_penalty, 'presence_penalty'),
    frequencyPenalty: readNumberField(body.frequency_penalty, 'frequency_penalty'),
    seed: readNumberField(body.seed, 'seed'),
    responseFormat: readResponseFormat(body.response_format),
    user: readStringField(body.user, 'user'),
    reasoning: readReasoningEffort(body.reasoning_effort, 'reasoning_effort', true),
    stream: options.stream ?? body.stream === true,
    includeUsage: isRecord(body.stream_options) && body.stream_options.include_usage === true,
  };
  if (marks.last) request.systemCacheControl = marks.last;
  return request;
}

/**
 * The last `cache_control` of the system and developer content parts (an extension some SDK users send
 * for Anthropic-protocol vendors; the joined system prompt carries one breakpoint).
 */
interface SystemMarks {
  last?: Record<string, unknown>;
}

/**
 * The conversation's messages (system and developer text into `system`). A field's path (for a 400 or a
 * list of parts) is written only when one is needed: a message of plain strings makes none.
 */
function readMessages(list: unknown[], system: string[], policy: FieldPolicy, marks: SystemMarks): CanonicalMessage[] {
  const messages: CanonicalMessage[] = [];
  for (let i = 0; i < list.length; i++) {
    const item = list[i];
    const message = isRecord(item) ? item : readObject(item, `messages[${i}]`);
    const role = message.role;
    switch (typeof role === 'string' && (ROLES as readonly string[]).includes(role) ? role : readRole(role, `messages[${i}].role`, ROLES)) {
      case 'system':
      case 'developer': {
        const content = readMessageContent(message.content, i);
        system.push(readText(content));
        const mark = typeof content === 'string' ? undefined : readLastMark(content, `messages[${i}].content`);
        if (mark) marks.last = mark;
        break;
      }
      case 'user': {
        const content = readMessageContent(message.content, i);
        messages.push({ role: 'user', content: typeof content === 'string' ? [{ type: 'text', text: content }] : readUserParts(content, `messages[${i}]`, policy) });
        break;
      }
      case 'assistant':
        messages.push({ role: 'assistant', content: readAssistantParts(message, `messages[${i}]`, policy) });
        break;
      case 'tool': {
        const where = `messages[${i}]`;
        const content = readContentField(message.content, `${where}.content`)!;
        const mark = readLastMark(content, `${where}.content`);
        messages.push({
          role: 'user',
          content: [{
            type: 'tool_result',
            toolCallId: readStringField(message.tool_call_id, `${where}.tool_call_id`) ?? '',
            content: readTextParts(content),
            ...(mark ? { cacheControl: mark } : {}),
          }],
        });
        break;
      }
      default:
        policy.drop(`messages[${i}]`, "the role 'function' has no equivalent");
    }
  }
  return messages;
}

/** A message's content: a string, a list of parts, else a 400 naming `messages[i].content`. */
function readMessageContent(value: unknown, i: number): string | unknown[] {
  return typeof value === 'string' ? value : readContentField(value, `messages[${i}].content`)!;
}

/** Text of a string or of a list of text parts, joined. */
function readText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.filter((part) => isRecord(part) && typeof part.text === 'string').map((part) => part.text).join('\n');
}

/**
 * The last `cache_control` of a list of content parts (a 400 naming it when it is not an object): the
 * breakpoint of a system prompt or of a tool result, which the messages protocol marks as one block.
 */
function readLastMark(content: unknown, where: string): Record<string, unknown> | undefined {
  if (!Array.isArray(content)) return undefined;
  let last: Record<string, unknown> | undefined;
  content.forEach((part, j) => {
    const mark = isRecord(part) ? readCacheControl(part.cache_control, `${where}[${j}].cache_control`) : undefined;
    if (mark) last = mark;
  });
  return last;
}

function readTextParts(content: unknown): TextPart[] {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  if (!Array.isArray(content)) return [];
  return content.filter((part) => isRecord(part) && typeof part.text === 'string').map((part) => ({ type: 'text', text: part.text }));
}

function readUserParts(content: string | unknown[], where: string, policy: FieldPolicy): ContentPart[] {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  const parts: ContentPart[] = [];
  content.forEach((item, j) => {
    const at = `${where}.content[${j}]`;
    const part = readObject(item, at);
    const count = parts.length;
    if (part.type === 'text') parts.push({ type: 'text', text: readRequiredString(part.text, `${at}.text`) });
    else if (part.type === 'image_url') {
      const url = readObject(part.image_url, `${at}.image_url`);
      const image: ImagePart = { type: 'image', source: readImageUrl(readName(url.url, `${at}.image_url.url`)) };
      const detail = readStringField(url.detail, `${at}.image_url.detail`);
      if (detail !== undefined) image.detail = detail;
      parts.push(image);
    } else policy.drop(at, `${quoteValue(part.type)} parts have no equivalent`);
    const mark = readCacheControl(part.cache_control, `${at}.cache_control`);
    if (mark && parts.length > count) parts[parts.length - 1].cacheControl = mark;
  });
  return parts;
}

function readAssistantParts(message: Record<string, any>, where: string, policy: FieldPolicy): ContentPart[] {
  const parts: ContentPart[] = readAssistantReasoning(message, where);
  const content = readContentField(message.content, `${where}.content`, true);
  const text = (content === undefined ? '' : readText(content)) || (readStringField(message.refusal, `${where}.refusal`) ?? '');
  const signed = readExtraSignature(message, where);
  if (text || signed.signature !== undefined) parts.push({ type: 'text', text, ...signed });
  readList(message.tool_calls, `${where}.tool_calls`)?.forEach((item: unknown, j: number) => {
    const at = `${where}.tool_calls[${j}]`;
    const call = readObject(item, at);
    if (call.type !== undefined && call.type !== 'function') {
      policy.drop(at, 'only function tool calls can be translated');
      return;
    }
    const fn = readObject(call.function, `${at}.function`);
    const args = fn.arguments;
    parts.push({
      type: 'tool_call',
      id: readStringField(call.id, `${at}.id`) ?? '',
      name: readName(fn.name, `${at}.function.name`),
      arguments: typeof args === 'string' ? args : JSON.stringify(args ?? {}),
      ...readExtraSignature(call, at),
    });
  });
  if (message.function_call) policy.drop(`${where}.function_call`, 'use tool_calls');
  if (message.audio) policy.drop(`${where}.audio`);
  return parts;
}

function readTools(tools: unknown, policy: FieldPolicy): CanonicalTool[] | undefined {
  const items = readList(tools, 'tools');
  if (!items || items.length === 0) return undefined;
  const list: CanonicalTool[] = [];
  items.forEach((item, i) => {
    const tool = readObject(item, `tools[${i}]`);
    if (tool.type !== 'function') {
      policy.drop(`tools[${i}]`, 'only function tools can be translated');
      return;
    }
    const fn = readObject(tool.function, `tools[${i}].function`);
    const mark = readCacheControl(tool.cache_control, `tools[${i}].cache_control`);
    list.push({
      name: readName(fn.name, `tools[${i}].function.name`),
      description: readStringField(fn.description, `tools[${i}].function.description`),
      parameters: isAbsent(fn.parameters) ? { type: 'object', properties: {} } : readObject(fn.parameters, `tools[${i}].function.parameters`),
      ...(mark ? { cacheControl: mark } : {}),
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
