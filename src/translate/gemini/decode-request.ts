/** Generate-content request -> canonical request. */
import type { CanonicalMessage, CanonicalRequest, CanonicalTool, ContentPart, ResponseFormat, ToolChoice } from '../canonical.ts';
import type { DecodeOptions } from '../adapter.ts';
import { checkUnknownFields, type FieldPolicy } from '../field-policy.ts';
import { assertRecord, isRecord, readNumber, readStopSequences } from '../helpers.ts';
import { fromGeminiSchema } from '../gemini-schema.ts';
import { readCamelKeys } from './keys.ts';

const KNOWN = new Set(['model', 'contents', 'systemInstruction', 'tools', 'toolConfig', 'generationConfig']);
const BOOKKEEPING = new Set(['safetySettings', 'labels']);
const CONFIG_KNOWN = new Set([
  'temperature', 'topP', 'topK', 'maxOutputTokens', 'stopSequences', 'candidateCount', 'presencePenalty',
  'frequencyPenalty', 'seed', 'responseMimeType', 'responseSchema', 'responseJsonSchema', 'responseModalities',
]);
const SILENT_PART_KEYS = new Set(['thought', 'thoughtSignature']);

/**
 * Reads a generate-content body into the canonical shape (see field-policy.ts for the drop rule). The
 * model is in the path, streaming in the route (`options.stream`). Function calls and responses without
 * ids get ids `call_<n>`; a response takes the id of the oldest unanswered call of the same name.
 */
export function decodeGeminiRequest(raw: unknown, options: DecodeOptions): CanonicalRequest {
  assertRecord(raw);
  const body = readCamelKeys(raw);
  const { policy } = options;
  checkUnknownFields(body, KNOWN, BOOKKEEPING, policy);
  const config = isRecord(body.generationConfig) ? readCamelKeys(body.generationConfig) : {};
  for (const key of Object.keys(config)) {
    if (!CONFIG_KNOWN.has(key) && config[key] !== null && config[key] !== undefined) policy.drop(`generationConfig.${key}`);
  }
  if (typeof config.candidateCount === 'number' && config.candidateCount > 1) policy.drop('generationConfig.candidateCount', 'only one candidate can be generated');
  if (Array.isArray(config.responseModalities) && config.responseModalities.some((m: unknown) => m !== 'TEXT')) {
    policy.drop('generationConfig.responseModalities', 'only text output can be translated');
  }
  const tools = readTools(body.tools, policy);
  return {
    system: readSystem(body.systemInstruction),
    messages: readContents(Array.isArray(body.contents) ? body.contents : [], policy),
    tools,
    toolChoice: readToolConfig(body.toolConfig, policy),
    stopSequences: readStopSequences(config.stopSequences),
    maxTokens: readNumber(config.maxOutputTokens),
    temperature: readNumber(config.temperature),
    topP: readNumber(config.topP),
    topK: readNumber(config.topK),
    presencePenalty: readNumber(config.presencePenalty),
    frequencyPenalty: readNumber(config.frequencyPenalty),
    seed: readNumber(config.seed),
    responseFormat: readResponseFormat(config),
    stream: options.stream ?? false,
    includeUsage: false,
  };
}

function readSystem(instruction: unknown): string | undefined {
  if (typeof instruction === 'string') return instruction || undefined;
  if (!isRecord(instruction) || !Array.isArray(instruction.parts)) return undefined;
  const text = instruction.parts.filter((part: unknown) => isRecord(part) && typeof part.text === 'string').map((part: any) => part.text).join('\n');
  return text || undefined;
}

/** Hands out ids for function calls and matches function responses to them by name. */
function createCallIds() {
  let next = 0;
  const pending = new Map<string, string[]>();
  return {
    forCall(name: string, id?: string): string {
      const callId = id || `call_${next++}`;
      pending.set(name, [...(pending.get(name) ?? []), callId]);
      return callId;
    },
    forResponse(name: string, id?: string): string {
      const list = pending.get(name) ?? [];
      const index = id ? list.indexOf(id) : 0;
      const callId = id || list[0] || `call_${next++}`;
      if (index >= 0 && list.length > 0) list.splice(index, 1);
      return callId;
    },
  };
}

function readContents(contents: unknown[], policy: FieldPolicy): CanonicalMessage[] {
  const ids = createCallIds();
  const messages: CanonicalMessage[] = [];
  contents.forEach((content, i) => {
    if (!isRecord(content)) return;
    const parts: ContentPart[] = [];
    const list = Array.isArray(content.parts) ? content.parts : [];
    list.forEach((raw: unknown, j: number) => {
      if (isRecord(raw)) readPart(readCamelKeys(raw), `contents[${i}].parts[${j}]`, parts, ids, policy);
    });
    messages.push({ role: content.role === 'model' ? 'assistant' : 'user', content: parts });
  });
  return messages;
}

function readPart(part: Record<string, any>, at: string, parts: ContentPart[], ids: ReturnType<typeof createCallIds>, policy: FieldPolicy): void {
  if (part.thought === true) return;
  if (typeof part.text === 'string') {
    parts.push({ type: 'text', text: part.text });
  } else if (isRecord(part.inlineData)) {
    const data = readCamelKeys(part.inlineData);
    if (String(data.mimeType).startsWith('image/')) parts.push({ type: 'image', source: { kind: 'base64', mediaType: data.mimeType, data: String(data.data ?? '') } });
    else policy.drop(at, `inline '${String(data.mimeType)}' data has no equivalent`);
  } else if (isRecord(part.fileData)) {
    const file = readCamelKeys(part.fileData);
    if (String(file.mimeType ?? 'image/').startsWith('image/')) parts.push({ type: 'image', source: { kind: 'url', url: String(file.fileUri ?? '') } });
    else policy.drop(at, `'${String(file.mimeType)}' files have no equivalent`);
  } else if (isRecord(part.functionCall)) {
    const call = part.functionCall;
    const name = String(call.name ?? '');
    parts.push({ type: 'tool_call', id: ids.forCall(name, call.id), name, arguments: JSON.stringify(call.args ?? {}) });
  } else if (isRecord(part.functionResponse)) {
    const result = part.functionResponse;
    const name = String(result.name ?? '');
    parts.push({ type: 'tool_result', toolCallId: ids.forResponse(name, result.id), name, content: [{ type: 'text', text: JSON.stringify(result.response ?? {}) }] });
  } else {
    const keys = Object.keys(part).filter((key) => !SILENT_PART_KEYS.has(key));
    if (keys.length > 0) policy.drop(at, `'${keys[0]}' parts have no equivalent`);
  }
}

function readTools(tools: unknown, policy: FieldPolicy): CanonicalTool[] | undefined {
  if (!Array.isArray(tools)) return undefined;
  const list: CanonicalTool[] = [];
  tools.forEach((raw, i) => {
    if (!isRecord(raw)) return;
    const tool = readCamelKeys(raw);
    for (const key of Object.keys(tool)) if (key !== 'functionDeclarations') policy.drop(`tools[${i}].${key}`, 'only function declarations can be translated');
    const declarations = Array.isArray(tool.functionDeclarations) ? tool.functionDeclarations : [];
    for (const rawDeclaration of declarations) {
      if (!isRecord(rawDeclaration)) continue;
      const declaration = readCamelKeys(rawDeclaration);
      const parameters = isRecord(declaration.parametersJsonSchema)
        ? declaration.parametersJsonSchema
        : isRecord(declaration.parameters) ? fromGeminiSchema(declaration.parameters) : { type: 'object', properties: {} };
      list.push({ name: String(declaration.name ?? ''), description: typeof declaration.description === 'string' ? declaration.description : undefined, parameters });
    }
  });
  return list.length > 0 ? list : undefined;
}

function readToolConfig(raw: unknown, policy: FieldPolicy): ToolChoice | undefined {
  const config = isRecord(raw) ? readCamelKeys(raw) : undefined;
  const calling = isRecord(config?.functionCallingConfig) ? readCamelKeys(config.functionCallingConfig) : undefined;
  if (!calling) return undefined;
  const allowed: unknown[] = Array.isArray(calling.allowedFunctionNames) ? calling.allowedFunctionNames : [];
  if (calling.mode === 'NONE') return { type: 'none' };
  if (calling.mode === 'ANY' && allowed.length === 1) return { type: 'tool', name: String(allowed[0]) };
  if (allowed.length > 0) policy.drop('toolConfig.functionCallingConfig.allowedFunctionNames', 'only one allowed function can be translated');
  if (calling.mode === 'ANY') return { type: 'required' };
  return calling.mode === undefined ? undefined : { type: 'auto' };
}

function readResponseFormat(config: Record<string, any>): ResponseFormat | undefined {
  if (config.responseMimeType !== 'application/json') return undefined;
  if (isRecord(config.responseJsonSchema)) return { type: 'json_schema', schema: config.responseJsonSchema };
  if (isRecord(config.responseSchema)) return { type: 'json_schema', schema: fromGeminiSchema(config.responseSchema) };
  return { type: 'json_object' };
}
