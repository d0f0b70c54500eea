/** Responses-style request -> canonical request (client side only: served by other protocols' vendors). */
import { GatewayError } from '../../../errors.ts';
import type { CanonicalMessage, CanonicalRequest, CanonicalTool, ContentPart, ImagePart, ResponseFormat, TextPart, ToolChoice } from '../../../translate/canonical.ts';
import type { DecodeOptions } from '../../../translate/adapter.ts';
import { checkUnknownFields, type FieldPolicy } from '../../../translate/field-policy.ts';
import { assertRecord, isRecord, readImageUrl } from '../../../translate/helpers.ts';
import {
  createFieldError, isAbsent, quoteValue, readContentField, readList, readName, readNumberField, readObject, readOptionalObject,
  readRequiredString, readRole, readStringField,
} from '../../../translate/read-field.ts';
import { bindSignatures, readReasoningPart } from '../../../translate/reasoning-parts.ts';
import { readReasoningEffort } from '../../../translate/reasoning-budget.ts';
import { readSamplingFields } from '../read-sampling-fields.ts';

const KNOWN = new Set([
  'model', 'input', 'instructions', 'tools', 'tool_choice', 'parallel_tool_calls', 'max_output_tokens',
  'temperature', 'top_p', 'stream', 'text', 'user', 'store', 'reasoning', 'include',
]);
/** `include` values served: reasoning items always carry their `encrypted_content` here. */
const SERVED_INCLUDES = new Set(['reasoning.encrypted_content']);
const BOOKKEEPING = new Set(['metadata', 'service_tier', 'truncation', 'safety_identifier', 'prompt_cache_key', 'stream_options']);
/** Fields that need response state kept by the vendor (answered 400 here: translated vendors keep none). */
const STATEFUL = ['previous_response_id', 'conversation', 'background', 'prompt'] as const;
const ROLES = ['user', 'assistant', 'system', 'developer'] as const;

/** Throws the 400 of a field that needs a vendor keeping response state. */
function rejectStateful(field: string): never {
  throw new GatewayError(400, 'unsupported_parameter', `'${field}' needs a vendor that keeps response state; the vendor of this model does not.`, { param: field });
}

/** Reads a responses request body into the canonical shape (see field-policy.ts for the drop rule). */
export function decodeResponsesRequest(body: unknown, options: DecodeOptions): CanonicalRequest {
  assertRecord(body);
  for (const field of STATEFUL) if (body[field] !== undefined && body[field] !== null && body[field] !== false) rejectStateful(field);
  if (body.store === true) rejectStateful('store');
  const { policy } = options;
  checkUnknownFields(body, KNOWN, BOOKKEEPING, policy);
  if ((readList(body.include, 'include') ?? []).some((value) => !SERVED_INCLUDES.has(value as string))) policy.drop('include');
  const instructions = readStringField(body.instructions, 'instructions');
  const system: string[] = instructions ? [instructions] : [];
  const messages = readInput(body.input, system, policy);
  const text = readOptionalObject(body.text, 'text') ?? {};
  if (text.verbosity !== undefined && text.verbosity !== null) policy.drop('text.verbosity');
  return {
    system: system.length > 0 ? system.join('\n\n') : undefined,
    messages,
    tools: readTools(body.tools, policy),
    toolChoice: readToolChoice(body.tool_choice, policy),
    parallelToolCalls: typeof body.parallel_tool_calls === 'boolean' ? body.parallel_tool_calls : undefined,
    maxTokens: readNumberField(body.max_output_tokens, 'max_output_tokens'),
    ...readSamplingFields(body, ['temperature', 'topP']),
    responseFormat: readFormat(text.format),
    user: readStringField(body.user, 'user'),
    reasoning: readReasoning(readOptionalObject(body.reasoning, 'reasoning')),
    stream: options.stream ?? body.stream === true,
    includeUsage: false,
  };
}

function readInput(input: unknown, system: string[], policy: FieldPolicy): CanonicalMessage[] {
  if (typeof input === 'string') return [{ role: 'user', content: [{ type: 'text', text: input }] }];
  if (!Array.isArray(input) || input.length === 0) throw createFieldError('input', 'a string or a non-empty array of input items');
  const messages: CanonicalMessage[] = [];
  const push = (role: 'user' | 'assistant', parts: ContentPart[]): void => {
    const last = messages[messages.length - 1];
    if (last && last.role === role && role === 'assistant') last.content.push(...parts);
    else messages.push({ role, content: parts });
  };
  input.forEach((raw, i) => {
    const at = `input[${i}]`;
    const item = readObject(raw, at);
    const type = item.type ?? 'message';
    if (type === 'message') {
      const role = readRole(item.role, `${at}.role`, ROLES);
      const content = readContent(readContentField(item.content, `${at}.content`)!, at, policy);
      if (role === 'system' || role === 'developer') system.push(content.map((p) => (p.type === 'text' ? p.text : '')).join('\n'));
      else push(role, content);
    } else if (type === 'function_call') {
      const args = readStringField(item.arguments, `${at}.arguments`) ?? '';
      push('assistant', [{ type: 'tool_call', id: readRequiredString(item.call_id, `${at}.call_id`), name: readName(item.name, `${at}.name`), arguments: args }]);
    } else if (type === 'function_call_output') {
      const output: Array<TextPart | ImagePart> = typeof item.output === 'string'
        ? [{ type: 'text', text: item.output }]
        : readContent(readContentField(item.output, `${at}.output`)!, at, policy).filter((p): p is TextPart | ImagePart => p.type === 'text' || p.type === 'image');
      push('user', [{ type: 'tool_result', toolCallId: readRequiredString(item.call_id, `${at}.call_id`), content: output }]);
    } else if (type === 'item_reference') {
      rejectStateful(`${at}.item_reference`);
    } else if (type === 'reasoning') {
      const summary = (readList(item.summary, `${at}.summary`) ?? []).map((part, k) => readStringField(readObject(part, `${at}.summary[${k}]`).text, `${at}.summary[${k}].text`) ?? '');
      const part = readReasoningPart(summary.join('\n\n'), readStringField(item.encrypted_content, `${at}.encrypted_content`));
      if (part.text || part.signature !== undefined || part.redacted !== undefined) push('assistant', [part]);
    } else {
      policy.drop(at, `${quoteValue(type)} items have no equivalent`);
    }
  });
  for (const message of messages) if (message.role === 'assistant') message.content = bindSignatures(message.content);
  return messages;
}

/** `reasoning: {effort, summary}`: the effort (`none`: off), and a summary asked for = thinking text back. */
function readReasoning(reasoning: Record<string, any> | undefined): CanonicalRequest['reasoning'] {
  if (!reasoning) return undefined;
  const summary = reasoning.summary ?? reasoning.generate_summary;
  const include = summary !== undefined && summary !== null && summary !== 'none';
  return readReasoningEffort(reasoning.effort, 'reasoning.effort', include) ?? (include ? { enabled: true, include } : undefined);
}

function readContent(content: string | unknown[], at: string, policy: FieldPolicy): ContentPart[] {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  const parts: ContentPart[] = [];
  content.forEach((raw, j) => {
    const where = `${at}.content[${j}]`;
    const part = readObject(raw, where);
    if (part.type === 'input_text' || part.type === 'output_text') parts.push({ type: 'text', text: readRequiredString(part.text, `${where}.text`) });
    else if (part.type === 'refusal') parts.push({ type: 'text', text: readRequiredString(part.refusal, `${where}.refusal`) });
    else if (part.type === 'input_image' && !isAbsent(part.image_url)) {
      const detail = readStringField(part.detail, `${where}.detail`);
      parts.push({ type: 'image', source: readImageUrl(readName(part.image_url, `${where}.image_url`)), ...(detail !== undefined ? { detail } : {}) });
    } else policy.drop(where, `${quoteValue(part.type)} parts have no equivalent`);
  });
  return parts;
}

function readTools(tools: unknown, policy: FieldPolicy): CanonicalTool[] | undefined {
  const items = readList(tools, 'tools');
  if (!items || items.length === 0) return undefined;
  const list: CanonicalTool[] = [];
  items.forEach((raw, i) => {
    const tool = readObject(raw, `tools[${i}]`);
    if (tool.type !== 'function') {
      policy.drop(`tools[${i}]`, 'only function tools can be translated');
      return;
    }
    list.push({
      name: readName(tool.name, `tools[${i}].name`),
      description: readStringField(tool.description, `tools[${i}].description`),
      parameters: isAbsent(tool.parameters) ? { type: 'object', properties: {} } : readObject(tool.parameters, `tools[${i}].parameters`),
    });
  });
  return list.length > 0 ? list : undefined;
}

function readToolChoice(choice: unknown, policy: FieldPolicy): ToolChoice | undefined {
  if (choice === 'auto' || choice === 'none' || choice === 'required') return { type: choice };
  if (isRecord(choice) && choice.type === 'function' && typeof choice.name === 'string') return { type: 'tool', name: choice.name };
  if (choice !== undefined && choice !== null) policy.drop('tool_choice');
  return undefined;
}

function readFormat(format: unknown): ResponseFormat | undefined {
  if (!isRecord(format)) return undefined;
  if (format.type === 'json_object') return { type: 'json_object' };
  if (format.type === 'json_schema') {
    return {
      type: 'json_schema',
      name: typeof format.name === 'string' ? format.name : undefined,
      schema: isRecord(format.schema) ? format.schema : undefined,
      strict: format.strict === true ? true : undefined,
    };
  }
  return undefined;
}
