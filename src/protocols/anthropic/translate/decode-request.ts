/** Messages-protocol request -> canonical request. */
import type { CanonicalMessage, CanonicalRequest, CanonicalTool, ContentPart, ImagePart, TextPart, ToolChoice } from '../../../translate/canonical.ts';
import type { DecodeOptions } from '../../../translate/adapter.ts';
import { checkUnknownFields, type FieldPolicy } from '../../../translate/field-policy.ts';
import { assertRecord, isRecord } from '../../../translate/helpers.ts';
import { readCacheControl } from '../../../translate/cache-control.ts';
import { bindSignatures, readReasoningPart } from '../../../translate/reasoning-parts.ts';
import {
  createFieldError, isAbsent, quoteValue, readContentField, readList, readName, readNumberField, readObject, readOptionalObject, readRequiredString, readRole,
  readStopField, readStringField,
} from '../../../translate/read-field.ts';
import { toText } from '../../../lib/to-text.ts';

const KNOWN = new Set([
  'model', 'messages', 'system', 'max_tokens', 'stop_sequences', 'temperature', 'top_p', 'top_k', 'stream',
  'tools', 'tool_choice', 'metadata', 'output_config', 'thinking',
]);
const BOOKKEEPING = new Set(['service_tier', 'inference_geo', 'container']);
/** Message roles (a `system` message is accepted too and joined to the system prompt). */
const ROLES = ['user', 'assistant', 'system'] as const;

/** Reads a messages request body into the canonical shape (see field-policy.ts for the drop rule). */
export function decodeAnthropicRequest(body: unknown, options: DecodeOptions): CanonicalRequest {
  assertRecord(body);
  const { policy } = options;
  checkUnknownFields(body, KNOWN, BOOKKEEPING, policy);
  const system: string[] = [];
  const marks: SystemMarks = {};
  const top = readSystem(body.system, 'system', marks);
  if (top) system.push(top);
  const messages = readMessages(readList(body.messages, 'messages', true)!, system, policy, marks);
  const choice = readOptionalObject(body.tool_choice, 'tool_choice');
  // One literal with no spread in it: the properties after a spread are each defined through the runtime.
  const request: CanonicalRequest = {
    system: system.length > 0 ? system.join('\n\n') : undefined,
    messages,
    tools: readTools(body.tools, policy),
    toolChoice: readToolChoice(choice),
    parallelToolCalls: isRecord(choice) && choice.disable_parallel_tool_use === true ? false : undefined,
    stopSequences: readStopField(body.stop_sequences, 'stop_sequences'),
    maxTokens: readNumberField(body.max_tokens, 'max_tokens'),
    temperature: readNumberField(body.temperature, 'temperature'),
    topP: readNumberField(body.top_p, 'top_p'),
    topK: readNumberField(body.top_k, 'top_k'),
    responseFormat: readOutputFormat(readOptionalObject(body.output_config, 'output_config'), policy),
    user: readStringField(readOptionalObject(body.metadata, 'metadata')?.user_id, 'metadata.user_id'),
    reasoning: readThinking(readOptionalObject(body.thinking, 'thinking')),
    stream: options.stream ?? body.stream === true,
    includeUsage: false,
  };
  if (marks.last) request.systemCacheControl = marks.last;
  return request;
}

/** The last `cache_control` of the system blocks (the joined system prompt carries one breakpoint). */
interface SystemMarks {
  last?: Record<string, unknown>;
}

/** A system prompt: a string or a list of text blocks (absent: ''), else a 400 naming `path`. */
function readSystem(system: unknown, path: string, marks: SystemMarks): string {
  if (isAbsent(system)) return '';
  const content = readContentField(system, path)!;
  if (typeof content === 'string') return content;
  return content.map((item, i) => {
    const block = readObject(item, `${path}[${i}]`);
    const mark = readCacheControl(block.cache_control, `${path}[${i}].cache_control`);
    if (mark) marks.last = mark;
    return readRequiredString(block.text, `${path}[${i}].text`);
  }).join('\n\n');
}

function readMessages(list: unknown[], system: string[], policy: FieldPolicy, marks: SystemMarks): CanonicalMessage[] {
  const messages: CanonicalMessage[] = [];
  list.forEach((item, i) => {
    const where = `messages[${i}]`;
    const message = readObject(item, where);
    const role = readRole(message.role, `${where}.role`, ROLES);
    if (role === 'system') {
      system.push(readSystem(message.content, `${where}.content`, marks));
      return;
    }
    messages.push({ role, content: bindSignatures(readBlocks(readContentField(message.content, `${where}.content`)!, where, policy)) });
  });
  return messages;
}

function readBlocks(content: string | unknown[], where: string, policy: FieldPolicy): ContentPart[] {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  const parts: ContentPart[] = [];
  content.forEach((item, j) => {
    const at = `${where}.content[${j}]`;
    const block = readObject(item, at);
    const count = parts.length;
    if (block.type === 'text') parts.push({ type: 'text', text: readRequiredString(block.text, `${at}.text`) });
    else if (block.type === 'image') pushImage(parts, block, at, policy);
    else if (block.type === 'tool_use') {
      const input = isAbsent(block.input) ? {} : readObject(block.input, `${at}.input`);
      parts.push({ type: 'tool_call', id: readStringField(block.id, `${at}.id`) ?? '', name: readName(block.name, `${at}.name`), arguments: JSON.stringify(input) });
    } else if (block.type === 'tool_result') {
      parts.push({
        type: 'tool_result',
        toolCallId: readRequiredString(block.tool_use_id, `${at}.tool_use_id`),
        content: readResultContent(block.content, at, policy),
        ...(block.is_error === true ? { isError: true } : {}),
      });
    } else if (block.type === 'thinking') {
      parts.push(readReasoningPart(readStringField(block.thinking, `${at}.thinking`) ?? '', readStringField(block.signature, `${at}.signature`)));
    } else if (block.type === 'redacted_thinking') {
      parts.push(readReasoningPart('', readRequiredString(block.data, `${at}.data`), true));
    } else {
      policy.drop(at, `${quoteValue(block.type)} blocks have no equivalent`);
    }
    const mark = readCacheControl(block.cache_control, `${at}.cache_control`);
    if (mark && parts.length > count) parts[parts.length - 1].cacheControl = mark;
  });
  return parts;
}

function pushImage(parts: ContentPart[], block: Record<string, any>, at: string, policy: FieldPolicy): void {
  const source = block.source;
  if (isRecord(source) && source.type === 'base64' && typeof source.data === 'string') {
    parts.push({ type: 'image', source: { kind: 'base64', mediaType: toText(source.media_type ?? 'image/png'), data: source.data } });
  } else if (isRecord(source) && source.type === 'url' && typeof source.url === 'string') {
    parts.push({ type: 'image', source: { kind: 'url', url: source.url } });
  } else {
    policy.drop(at, 'only base64 and URL images can be translated');
  }
}

function readResultContent(content: unknown, at: string, policy: FieldPolicy): Array<TextPart | ImagePart> {
  const value = readContentField(content, `${at}.content`, true);
  if (value === undefined) return [];
  if (typeof value === 'string') return [{ type: 'text', text: value }];
  const parts: Array<TextPart | ImagePart> = [];
  value.forEach((item, k) => {
    const block = readObject(item, `${at}.content[${k}]`);
    if (block.type === 'text') parts.push({ type: 'text', text: readRequiredString(block.text, `${at}.content[${k}].text`) });
    else if (block.type === 'image') pushImage(parts, block, at, policy);
    else policy.drop(at, `${quoteValue(block.type)} tool result blocks have no equivalent`);
  });
  return parts;
}

function readTools(tools: unknown, policy: FieldPolicy): CanonicalTool[] | undefined {
  const items = readList(tools, 'tools');
  if (!items || items.length === 0) return undefined;
  const list: CanonicalTool[] = [];
  items.forEach((item, i) => {
    const tool = readObject(item, `tools[${i}]`);
    if (!isAbsent(tool.type) && tool.type !== 'custom') {
      policy.drop(`tools[${i}]`, 'server tools have no equivalent');
      return;
    }
    const mark = readCacheControl(tool.cache_control, `tools[${i}].cache_control`);
    list.push({
      name: readName(tool.name, `tools[${i}].name`),
      description: readStringField(tool.description, `tools[${i}].description`),
      parameters: isAbsent(tool.input_schema) ? { type: 'object', properties: {} } : readObject(tool.input_schema, `tools[${i}].input_schema`),
      ...(mark ? { cacheControl: mark } : {}),
    });
  });
  return list.length > 0 ? list : undefined;
}

function readToolChoice(choice: Record<string, any> | undefined): ToolChoice | undefined {
  if (!choice) return undefined;
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

/** `thinking`: enabled with a budget, adaptive (enabled, the model's budget), or disabled. */
function readThinking(thinking: Record<string, any> | undefined): CanonicalRequest['reasoning'] {
  if (!thinking) return undefined;
  if (thinking.type === 'disabled') return { enabled: false };
  if (thinking.type === 'adaptive') return { enabled: true, include: true };
  if (thinking.type !== 'enabled') throw createFieldError('thinking.type', 'one of enabled, adaptive, disabled');
  return { enabled: true, budgetTokens: readNumberField(thinking.budget_tokens, 'thinking.budget_tokens'), include: true };
}
