/** Generate-content request -> canonical request. */
import type { CanonicalMessage, CanonicalRequest, CanonicalTool, ContentPart, ResponseFormat, ToolChoice } from '../../../translate/canonical.ts';
import type { DecodeOptions } from '../../../translate/adapter.ts';
import { checkUnknownFields, type FieldPolicy } from '../../../translate/field-policy.ts';
import { assertRecord, isRecord } from '../../../translate/helpers.ts';
import {
  isAbsent, quoteValue, readList, readName, readNumberField, readObject, readOptionalObject, readRequiredString, readRole, readStopField,
  readStringField,
} from '../../../translate/read-field.ts';
import { fromGeminiSchema } from './schema.ts';
import { readCamelKeys } from './keys.ts';
import { bindSignatures, readReasoningPart, readSignedFields } from '../../../translate/reasoning-parts.ts';
import { toText } from '../../../lib/to-text.ts';

const KNOWN = new Set(['model', 'contents', 'systemInstruction', 'tools', 'toolConfig', 'generationConfig']);
const BOOKKEEPING = new Set(['safetySettings', 'labels']);
const CONFIG_KNOWN = new Set([
  'temperature', 'topP', 'topK', 'maxOutputTokens', 'stopSequences', 'candidateCount', 'presencePenalty',
  'frequencyPenalty', 'seed', 'responseMimeType', 'responseSchema', 'responseJsonSchema', 'responseModalities', 'thinkingConfig',
]);
const SILENT_PART_KEYS = new Set(['thought', 'thoughtSignature']);
const THINKING_LEVELS: Readonly<Record<string, 'low' | 'medium' | 'high'>> = { MINIMAL: 'low', LOW: 'low', MEDIUM: 'medium', HIGH: 'high' };
/** Roles of a turn (`function`, older clients' tool turns, counts as the user's). */
const ROLES = ['user', 'model', 'function'] as const;

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
  const rawConfig = readOptionalObject(body.generationConfig, 'generationConfig');
  const config = rawConfig ? readCamelKeys(rawConfig) : {};
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
    messages: readContents(readList(body.contents, 'contents', true)!, policy),
    tools,
    toolChoice: readToolConfig(body.toolConfig, policy),
    stopSequences: readStopField(config.stopSequences, 'generationConfig.stopSequences'),
    maxTokens: readNumberField(config.maxOutputTokens, 'generationConfig.maxOutputTokens'),
    temperature: readNumberField(config.temperature, 'generationConfig.temperature'),
    topP: readNumberField(config.topP, 'generationConfig.topP'),
    topK: readNumberField(config.topK, 'generationConfig.topK'),
    presencePenalty: readNumberField(config.presencePenalty, 'generationConfig.presencePenalty'),
    frequencyPenalty: readNumberField(config.frequencyPenalty, 'generationConfig.frequencyPenalty'),
    seed: readNumberField(config.seed, 'generationConfig.seed'),
    responseFormat: readResponseFormat(config),
    reasoning: readThinkingConfig(config.thinkingConfig),
    stream: options.stream ?? false,
    includeUsage: false,
  };
}

function readSystem(instruction: unknown): string | undefined {
  if (typeof instruction === 'string') return instruction || undefined;
  const content = readOptionalObject(instruction, 'systemInstruction');
  if (!content) return undefined;
  const parts = readList(content.parts, 'systemInstruction.parts') ?? [];
  const text = parts.map((part, j) => readRequiredString(readObject(part, `systemInstruction.parts[${j}]`).text, `systemInstruction.parts[${j}].text`)).join('\n');
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
  contents.forEach((item, i) => {
    const content = readObject(item, `contents[${i}]`);
    const role = isAbsent(content.role) ? 'user' : readRole(content.role, `contents[${i}].role`, ROLES);
    const parts: ContentPart[] = [];
    readList(content.parts, `contents[${i}].parts`, true)!.forEach((raw: unknown, j: number) => {
      const at = `contents[${i}].parts[${j}]`;
      readPart(readCamelKeys(readObject(raw, at)), at, parts, ids, policy);
    });
    messages.push({ role: role === 'model' ? 'assistant' : 'user', content: bindSignatures(parts) });
  });
  return messages;
}

function readPart(part: Record<string, any>, at: string, parts: ContentPart[], ids: ReturnType<typeof createCallIds>, policy: FieldPolicy): void {
  if (part.thought === true) {
    const text = readStringField(part.text, `${at}.text`) ?? '';
    const reasoning = readReasoningPart(text, readStringField(part.thoughtSignature, `${at}.thoughtSignature`));
    // A streamed thought arrives in pieces, its signature on the last: the pieces are one thought.
    const last = parts[parts.length - 1];
    if (last?.type === 'reasoning' && last.signature === undefined && last.redacted === undefined && last.callId === undefined && reasoning.callId === undefined) {
      parts[parts.length - 1] = { ...reasoning, text: last.text + reasoning.text };
    } else parts.push(reasoning);
    return;
  }
  if (part.text !== undefined) {
    const signed = readSignedFields(readStringField(part.thoughtSignature, `${at}.thoughtSignature`));
    parts.push({ type: 'text', text: readRequiredString(part.text, `${at}.text`), ...signed });
  } else if (isRecord(part.inlineData)) {
    const data = readCamelKeys(part.inlineData);
    const mimeType = readName(data.mimeType, `${at}.inlineData.mimeType`);
    if (mimeType.startsWith('image/')) parts.push({ type: 'image', source: { kind: 'base64', mediaType: mimeType, data: readRequiredString(data.data, `${at}.inlineData.data`) } });
    else policy.drop(at, `inline ${quoteValue(mimeType)} data has no equivalent`);
  } else if (isRecord(part.fileData)) {
    const file = readCamelKeys(part.fileData);
    const mimeType = readStringField(file.mimeType, `${at}.fileData.mimeType`) ?? 'image/';
    if (mimeType.startsWith('image/')) parts.push({ type: 'image', source: { kind: 'url', url: readName(file.fileUri, `${at}.fileData.fileUri`) } });
    else policy.drop(at, `${quoteValue(mimeType)} files have no equivalent`);
  } else if (isRecord(part.functionCall)) {
    const call = part.functionCall;
    const name = readName(call.name, `${at}.functionCall.name`);
    const args = isAbsent(call.args) ? {} : readObject(call.args, `${at}.functionCall.args`);
    const signed = readSignedFields(readStringField(part.thoughtSignature, `${at}.thoughtSignature`));
    parts.push({ type: 'tool_call', id: ids.forCall(name, readStringField(call.id, `${at}.functionCall.id`)), name, arguments: JSON.stringify(args), ...signed });
  } else if (isRecord(part.functionResponse)) {
    const result = part.functionResponse;
    const name = readName(result.name, `${at}.functionResponse.name`);
    const id = readStringField(result.id, `${at}.functionResponse.id`);
    parts.push({ type: 'tool_result', toolCallId: ids.forResponse(name, id), name, content: [{ type: 'text', text: JSON.stringify(result.response ?? {}) }] });
  } else {
    const keys = Object.keys(part).filter((key) => !SILENT_PART_KEYS.has(key));
    if (keys.length > 0) policy.drop(at, `${quoteValue(keys[0])} parts have no equivalent`);
  }
}

function readTools(tools: unknown, policy: FieldPolicy): CanonicalTool[] | undefined {
  const items = readList(tools, 'tools');
  if (!items) return undefined;
  const list: CanonicalTool[] = [];
  items.forEach((raw, i) => {
    const tool = readCamelKeys(readObject(raw, `tools[${i}]`));
    for (const key of Object.keys(tool)) if (key !== 'functionDeclarations') policy.drop(`tools[${i}].${key}`, 'only function declarations can be translated');
    const declarations = readList(tool.functionDeclarations, `tools[${i}].functionDeclarations`) ?? [];
    declarations.forEach((rawDeclaration, k) => {
      const at = `tools[${i}].functionDeclarations[${k}]`;
      const declaration = readCamelKeys(readObject(rawDeclaration, at));
      const parameters = isRecord(declaration.parametersJsonSchema)
        ? declaration.parametersJsonSchema
        : isRecord(declaration.parameters) ? fromGeminiSchema(declaration.parameters) : { type: 'object', properties: {} };
      list.push({ name: readName(declaration.name, `${at}.name`), description: readStringField(declaration.description, `${at}.description`), parameters });
    });
  });
  return list.length > 0 ? list : undefined;
}

function readToolConfig(raw: unknown, policy: FieldPolicy): ToolChoice | undefined {
  const config = isRecord(raw) ? readCamelKeys(raw) : undefined;
  const calling = isRecord(config?.functionCallingConfig) ? readCamelKeys(config.functionCallingConfig) : undefined;
  if (!calling) return undefined;
  const allowed: unknown[] = Array.isArray(calling.allowedFunctionNames) ? calling.allowedFunctionNames : [];
  if (calling.mode === 'NONE') return { type: 'none' };
  if (calling.mode === 'ANY' && allowed.length === 1) return { type: 'tool', name: toText(allowed[0]) };
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

/**
 * `thinkingConfig`: a budget (0 switches reasoning off, -1 lets the model decide) or a level, and
 * whether thoughts come back (`includeThoughts`).
 */
function readThinkingConfig(raw: unknown): CanonicalRequest['reasoning'] {
  if (isAbsent(raw)) return undefined;
  const config = readCamelKeys(readObject(raw, 'generationConfig.thinkingConfig'));
  const budget = readNumberField(config.thinkingBudget, 'generationConfig.thinkingConfig.thinkingBudget');
  const include = typeof config.includeThoughts === 'boolean' ? config.includeThoughts : undefined;
  if (budget === 0) return { enabled: false };
  const level = typeof config.thinkingLevel === 'string' ? THINKING_LEVELS[config.thinkingLevel.toUpperCase()] : undefined;
  return {
    enabled: true,
    ...(level ? { effort: level } : {}),
    ...(budget === undefined ? {} : { budgetTokens: budget }),
    ...(include === undefined ? {} : { include }),
  };
}
