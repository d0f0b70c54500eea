/** Responses-style request -> canonical request (client side only: served by other protocols' vendors). */
import { GatewayError } from '../../errors.ts';
import type { CanonicalMessage, CanonicalRequest, CanonicalTool, ContentPart, ImagePart, ResponseFormat, TextPart, ToolChoice } from '../canonical.ts';
import type { DecodeOptions } from '../adapter.ts';
import { checkUnknownFields, type FieldPolicy } from '../field-policy.ts';
import { assertRecord, isRecord, readImageUrl, readNumber } from '../helpers.ts';

const KNOWN = new Set([
  'model', 'input', 'instructions', 'tools', 'tool_choice', 'parallel_tool_calls', 'max_output_tokens',
  'temperature', 'top_p', 'stream', 'text', 'user', 'store',
]);
const BOOKKEEPING = new Set(['metadata', 'service_tier', 'truncation', 'safety_identifier', 'prompt_cache_key', 'stream_options']);
/** Fields that need response state kept by the vendor (answered 400 here: translated vendors keep none). */
const STATEFUL = ['previous_response_id', 'conversation', 'background', 'prompt'] as const;

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
  const system: string[] = typeof body.instructions === 'string' && body.instructions ? [body.instructions] : [];
  const messages = readInput(body.input, system, policy);
  const text = isRecord(body.text) ? body.text : {};
  if (text.verbosity !== undefined && text.verbosity !== null) policy.drop('text.verbosity');
  return {
    system: system.length > 0 ? system.join('\n\n') : undefined,
    messages,
    tools: readTools(body.tools, policy),
    toolChoice: readToolChoice(body.tool_choice, policy),
    parallelToolCalls: typeof body.parallel_tool_calls === 'boolean' ? body.parallel_tool_calls : undefined,
    maxTokens: readNumber(body.max_output_tokens),
    temperature: readNumber(body.temperature),
    topP: readNumber(body.top_p),
    responseFormat: readFormat(text.format),
    user: typeof body.user === 'string' ? body.user : undefined,
    stream: options.stream ?? body.stream === true,
    includeUsage: false,
  };
}

function readInput(input: unknown, system: string[], policy: FieldPolicy): CanonicalMessage[] {
  if (typeof input === 'string') return [{ role: 'user', content: [{ type: 'text', text: input }] }];
  if (!Array.isArray(input)) return [];
  const messages: CanonicalMessage[] = [];
  const push = (role: 'user' | 'assistant', parts: ContentPart[]): void => {
    const last = messages[messages.length - 1];
    if (last && last.role === role && role === 'assistant') last.content.push(...parts);
    else messages.push({ role, content: parts });
  };
  input.forEach((item, i) => {
    if (!isRecord(item)) return;
    const at = `input[${i}]`;
    const type = item.type ?? 'message';
    if (type === 'message') {
      if (item.role === 'system' || item.role === 'developer') system.push(readContent(item.content, at, policy).map((p) => (p.type === 'text' ? p.text : '')).join('\n'));
      else push(item.role === 'assistant' ? 'assistant' : 'user', readContent(item.content, at, policy));
    } else if (type === 'function_call') {
      push('assistant', [{ type: 'tool_call', id: String(item.call_id ?? ''), name: String(item.name ?? ''), arguments: String(item.arguments ?? '') }]);
    } else if (type === 'function_call_output') {
      const output: Array<TextPart | ImagePart> = typeof item.output === 'string'
        ? [{ type: 'text', text: item.output }]
        : readContent(item.output, at, policy).filter((p): p is TextPart | ImagePart => p.type === 'text' || p.type === 'image');
      push('user', [{ type: 'tool_result', toolCallId: String(item.call_id ?? ''), content: output }]);
    } else if (type === 'item_reference') {
      rejectStateful(`${at}.item_reference`);
    } else if (type === 'reasoning') {
      policy.ignore(at);
    } else {
      policy.drop(at, `'${String(type)}' items have no equivalent`);
    }
  });
  return messages;
}

function readContent(content: unknown, at: string, policy: FieldPolicy): ContentPart[] {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  if (!Array.isArray(content)) return [];
  const parts: ContentPart[] = [];
  content.forEach((part, j) => {
    if (!isRecord(part)) return;
    if ((part.type === 'input_text' || part.type === 'output_text') && typeof part.text === 'string') parts.push({ type: 'text', text: part.text });
    else if (part.type === 'refusal' && typeof part.refusal === 'string') parts.push({ type: 'text', text: part.refusal });
    else if (part.type === 'input_image' && typeof part.image_url === 'string') {
      parts.push({ type: 'image', source: readImageUrl(part.image_url), ...(typeof part.detail === 'string' ? { detail: part.detail } : {}) });
    } else policy.drop(`${at}.content[${j}]`, `'${String(part.type)}' parts have no equivalent`);
  });
  return parts;
}

function readTools(tools: unknown, policy: FieldPolicy): CanonicalTool[] | undefined {
  if (!Array.isArray(tools) || tools.length === 0) return undefined;
  const list: CanonicalTool[] = [];
  tools.forEach((tool, i) => {
    if (!isRecord(tool) || tool.type !== 'function' || typeof tool.name !== 'string') {
      policy.drop(`tools[${i}]`, 'only function tools can be translated');
      return;
    }
    list.push({
      name: tool.name,
      description: typeof tool.description === 'string' ? tool.description : undefined,
      parameters: isRecord(tool.parameters) ? tool.parameters : { type: 'object', properties: {} },
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
