/** Canonical request -> generate-content request (for a vendor speaking that protocol). */
import type { CanonicalRequest, ContentPart, ToolResultPart } from '../../../translate/canonical.ts';
import type { EncodeOptions, VendorCall } from '../../../translate/adapter.ts';
import type { FieldPolicy } from '../../../translate/field-policy.ts';
import { dropCacheControl } from '../../../translate/cache-control.ts';
import { GatewayError } from '../../../errors.ts';
import { guessImageType, isRecord, parseToolArguments } from '../../../translate/helpers.ts';
import { toGeminiSchema } from './schema.ts';
import { writeThinkingConfig } from './thinking.ts';
import { writeTextPart } from './response.ts';

/**
 * Builds the generate-content call: `/models/{model}:generateContent`, or
 * `:streamGenerateContent?alt=sse` for a stream. Consecutive turns of one role are merged (the protocol
 * wants alternating turns). Tool schemas are converted by the rule in schema.ts; a tool with no
 * parameter properties is declared without `parameters`. Function calls are sent without ids (as the
 * protocol's own traffic does); a function response is named after the call its id answers. A tool
 * result that is a JSON object is sent as the response itself, anything else as `{output: ...}` (or
 * `{error: ...}` for a failed call). Image URLs become `fileData` with a media type guessed from the
 * extension. The protocol rejects unknown fields, so nothing else is sent. With reasoning on, a function
 * call carries its `thoughtSignature`, or (made elsewhere, its signature stripped) the documented
 * `skip_thought_signature_validator`; a text signed by this target carries its `thoughtSignature` again.
 */
export function encodeGeminiRequest(request: CanonicalRequest, options: EncodeOptions): VendorCall {
  const { policy } = options;
  const body: Record<string, unknown> = { contents: writeContents(request, policy) };
  if (request.system) body.systemInstruction = { parts: [{ text: request.system }] };
  if (request.tools) {
    body.tools = [{ functionDeclarations: request.tools.map((tool) => {
      const parameters = toGeminiSchema(tool.parameters);
      return {
        name: tool.name,
        ...(tool.description === undefined ? {} : { description: tool.description }),
        ...(parameters.properties ? { parameters } : {}),
      };
    }) }];
  }
  const choice = request.toolChoice;
  if (choice) {
    const mode = choice.type === 'none' ? 'NONE' : choice.type === 'auto' ? 'AUTO' : 'ANY';
    body.toolConfig = { functionCallingConfig: { mode, ...(choice.type === 'tool' ? { allowedFunctionNames: [choice.name] } : {}) } };
  }
  if (request.parallelToolCalls === false && request.tools) policy.drop('parallelToolCalls');
  if (request.user !== undefined) policy.ignore('user');
  dropCacheControl(request, policy);
  body.generationConfig = writeGenerationConfig(request);
  writeThinkingConfig(body.generationConfig as Record<string, unknown>, request, options);
  const method = request.stream ? 'streamGenerateContent?alt=sse' : 'generateContent';
  return { path: `/models/${encodeURIComponent(options.model)}:${method}`, body };
}

function writeGenerationConfig(request: CanonicalRequest): Record<string, unknown> {
  const config: Record<string, unknown> = {};
  if (request.maxTokens !== undefined) config.maxOutputTokens = request.maxTokens;
  if (request.temperature !== undefined) config.temperature = request.temperature;
  if (request.topP !== undefined) config.topP = request.topP;
  if (request.topK !== undefined) config.topK = request.topK;
  if (request.stopSequences) config.stopSequences = request.stopSequences;
  if (request.presencePenalty !== undefined) config.presencePenalty = request.presencePenalty;
  if (request.frequencyPenalty !== undefined) config.frequencyPenalty = request.frequencyPenalty;
  if (request.seed !== undefined) config.seed = request.seed;
  const format = request.responseFormat;
  if (format && format.type !== 'text') {
    config.responseMimeType = 'application/json';
    if (format.type === 'json_schema' && format.schema) config.responseSchema = toGeminiSchema(format.schema);
  }
  return config;
}

function writeContents(request: CanonicalRequest, policy: FieldPolicy): Array<{ role: string; parts: unknown[] }> {
  const names = new Map<string, string>();
  const reasoning = request.reasoning?.enabled === true;
  for (const message of request.messages) {
    for (const part of message.content) if (part.type === 'tool_call') names.set(part.id, part.name);
  }
  const out: Array<{ role: string; parts: unknown[] }> = [];
  for (const message of request.messages) {
    const role = message.role === 'assistant' ? 'model' : 'user';
    const parts = message.content.map((part) => writePart(part, names, policy, reasoning)).filter((part) => part !== undefined);
    if (parts.length === 0) continue;
    const last = out[out.length - 1];
    if (last && last.role === role) last.parts.push(...parts);
    else out.push({ role, parts });
  }
  return out;
}

/** The signature the protocol's documentation gives for function calls made elsewhere (no thought to verify). */
const SKIP_SIGNATURE = 'skip_thought_signature_validator';

function writePart(part: ContentPart, names: Map<string, string>, policy: FieldPolicy, reasoning: boolean): Record<string, unknown> | undefined {
  switch (part.type) {
    case 'text':
      // A text's signature goes back on the text (by the protocol's documentation, on the same part).
      return part.text || part.signature !== undefined ? writeTextPart(part.text, part.signature) : undefined;
    case 'image':
      return part.source.kind === 'base64'
        ? { inlineData: { mimeType: part.source.mediaType, data: part.source.data } }
        : { fileData: { mimeType: guessImageType(part.source.url), fileUri: part.source.url } };
    case 'tool_call': {
      const signature = part.signature ?? (reasoning ? SKIP_SIGNATURE : undefined);
      return { functionCall: { name: part.name, args: parseToolArguments(part.arguments, 'messages') }, ...(signature === undefined ? {} : { thoughtSignature: signature }) };
    }
    case 'reasoning':
      // Thoughts are not sent back; a call's signature rides on its function call part.
      return undefined;
    case 'tool_result':
      return { functionResponse: { name: readResultName(part, names), response: writeResultValue(part, policy) } };
  }
}

function readResultName(part: ToolResultPart, names: Map<string, string>): string {
  const name = part.name || names.get(part.toolCallId);
  if (!name) {
    throw new GatewayError(400, 'invalid_request', `The tool result for '${part.toolCallId}' answers no tool call in the conversation.`, { param: 'messages' });
  }
  return name;
}

function writeResultValue(part: ToolResultPart, policy: FieldPolicy): Record<string, unknown> {
  if (part.content.some((item) => item.type === 'image')) policy.drop('messages', 'images in tool results have no equivalent');
  const text = part.content.filter((item) => item.type === 'text').map((item) => item.text).join('\n');
  let value: unknown = text;
  try {
    value = JSON.parse(text);
  } catch {
    // plain text output
  }
  if (isRecord(value) && !part.isError) return value;
  return part.isError ? { error: value } : { output: value };
}
