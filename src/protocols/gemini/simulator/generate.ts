import type { ServerResponse } from 'node:http';
import { sendJson } from '../../../simulators/sim-server.ts';
import { createGoogleError } from './google-error.ts';
import { formatSse, SSE_HEADERS, writeStream } from '../../../simulators/sim-stream.ts';
import { countTokens, createEcho, createToolArgs, isObject, readText, splitPieces, toText, truncateWords } from '../../../simulators/text.ts';
import { planGeminiThought, readGeminiThinking, signGeminiCall, signGeminiText } from './thinking.ts';

/** Top-level fields a GenerateContentRequest may have (proto JSON accepts lowerCamel and snake_case). */
const KNOWN_FIELDS = new Set([
  'model', 'contents', 'tools', 'toolConfig', 'tool_config', 'safetySettings', 'safety_settings',
  'systemInstruction', 'system_instruction', 'generationConfig', 'generation_config', 'cachedContent', 'cached_content',
]);

/** Why a generateContent body would be refused (unknown top-level field, missing contents, bad role). */
export function findGenerateProblem(body: Record<string, any>): unknown {
  for (const name of Object.keys(body)) {
    if (!KNOWN_FIELDS.has(name)) {
      const message = `Invalid JSON payload received. Unknown name "${name}": Cannot find field.`;
      return createGoogleError(400, 'INVALID_ARGUMENT', message, [
        { '@type': 'type.googleapis.com/google.rpc.BadRequest', fieldViolations: [{ description: message }] },
      ]);
    }
  }
  if (!Array.isArray(body.contents) || body.contents.length === 0) {
    return createGoogleError(400, 'INVALID_ARGUMENT', '* GenerateContentRequest.contents: contents is not specified\n');
  }
  for (const content of body.contents) {
    if (content?.role !== undefined && content.role !== 'user' && content.role !== 'model') {
      return createGoogleError(400, 'INVALID_ARGUMENT', 'Please use a valid role: user, model.');
    }
  }
  return undefined;
}

/** The text of Gemini parts: text parts, or the JSON of functionResponse parts. */
function readParts(parts: unknown): string {
  if (!Array.isArray(parts)) return '';
  const responses = parts.filter((p) => isObject(p?.functionResponse));
  if (responses.length === 0) return readText(parts);
  return responses.map((p) => JSON.stringify(p.functionResponse.response ?? {})).join(' ');
}

/** Words of the system instruction and every content (the simulated promptTokenCount). */
export function countGeminiPrompt(body: Record<string, any>): number {
  let n = countTokens(readParts((body.systemInstruction ?? body.system_instruction)?.parts));
  if (Array.isArray(body.contents)) for (const c of body.contents) n += countTokens(readParts(c?.parts));
  return n;
}

/** The function calls the simulated model makes (every declared function unless toolConfig says otherwise). */
function planCalls(body: Record<string, any>, text: string): { functionCall: { name: string; args: unknown } }[] {
  const config = (body.toolConfig ?? body.tool_config)?.functionCallingConfig ?? {};
  if (config.mode === 'NONE' || !Array.isArray(body.tools)) return [];
  const allowed: unknown = config.allowedFunctionNames;
  const calls = [];
  for (const tool of body.tools) {
    for (const fn of tool?.functionDeclarations ?? tool?.function_declarations ?? []) {
      if (Array.isArray(allowed) && !allowed.includes(fn.name)) continue;
      calls.push({ functionCall: { name: toText(fn.name), args: createToolArgs(fn.parameters ?? fn.parametersJsonSchema, text) } });
    }
  }
  return calls;
}

/**
 * Answers :generateContent / :streamGenerateContent. Replies `Echo: <text of the last content>` (the
 * functionResponse JSON after a call), cut to generationConfig.maxOutputTokens words (finishReason
 * MAX_TOKENS); with functionDeclarations (and no functionResponse in the last content) it calls each
 * function in one part each, finishReason STOP, as fixtures/gemini/function-call-response.json.
 * The stream (`alt=sse`) is CRLF-framed `data:` events holding new text only; the last has finishReason
 * and usage. Without `alt=sse` the same chunks come back as one JSON array, as the REST API does.
 * `cachedInputTokens` of the prompt (at most all of it) are reported as `cachedContentTokenCount`.
 */
export function answerGenerate(
  res: ServerResponse,
  body: Record<string, any>,
  model: string,
  responseId: string,
  stream: boolean,
  sse: boolean,
  pacing: { streamEvents?: number; streamIntervalMs: number; cachedInputTokens?: number },
): void | Promise<void> {
  const last = body.contents[body.contents.length - 1];
  const hasResponse = Array.isArray(last?.parts) && last.parts.some((p: any) => isObject(p?.functionResponse));
  const thinking = readGeminiThinking(body);
  const calls = (hasResponse ? [] : planCalls(body, readText(last?.parts))).map((call) => (thinking ? { ...call, thoughtSignature: signGeminiCall(call.functionCall.name) } : call));
  const thought = thinking ? planGeminiThought(thinking, readParts(last?.parts)) : { tokens: 0 };
  const lead = thought.part ? [thought.part] : [];
  const full = createEcho(readParts(last?.parts));
  const cut = truncateWords(full, (body.generationConfig ?? body.generation_config)?.maxOutputTokens);
  const text = cut ?? full;
  const finishReason = calls.length === 0 && cut !== undefined ? 'MAX_TOKENS' : 'STOP';
  const prompt = countGeminiPrompt(body);
  const output = calls.length > 0 ? calls.reduce((n, c) => n + countTokens(JSON.stringify(c.functionCall.args)) + 1, 0) : countTokens(text);
  const promptDetails = [{ modality: 'TEXT', tokenCount: prompt }];
  const cached = Math.min(pacing.cachedInputTokens ?? 0, prompt);
  const fullUsage = {
    promptTokenCount: prompt,
    candidatesTokenCount: output,
    totalTokenCount: prompt + output + thought.tokens,
    ...(thought.tokens > 0 ? { thoughtsTokenCount: thought.tokens } : {}),
    ...(cached > 0 ? { cachedContentTokenCount: cached } : {}),
    promptTokensDetails: promptDetails,
    ...(cached > 0 ? { cacheTokensDetails: [{ modality: 'TEXT', tokenCount: cached }] } : {}),
    candidatesTokensDetails: [{ modality: 'TEXT', tokenCount: output }],
  };
  const headers = { 'content-type': 'application/json; charset=UTF-8' };
  const signature = thinking && calls.length === 0 ? { thoughtSignature: signGeminiText(text) } : undefined;
  if (!stream) {
    const parts = [...lead, ...(calls.length > 0 ? calls : [{ text, ...signature }])];
    const candidate = { content: { parts, role: 'model' }, finishReason, avgLogprobs: -0.1 };
    return sendJson(res, 200, { candidates: [candidate], usageMetadata: fullUsage, modelVersion: model, responseId }, headers);
  }
  const chunk = (parts: unknown[], finish?: string): unknown => {
    const candidate = finish ? { content: { parts, role: 'model' }, finishReason: finish } : { content: { parts, role: 'model' } };
    const usageMetadata = finish ? fullUsage : { promptTokenCount: prompt, totalTokenCount: prompt, promptTokensDetails: promptDetails };
    return { candidates: [candidate], usageMetadata, modelVersion: model, responseId };
  };
  const pieces = splitPieces(text, pacing.streamEvents);
  const chunks = [
    ...(lead.length > 0 ? [chunk(lead)] : []),
    ...(calls.length > 0 ? [chunk(calls, finishReason)] : pieces.map((piece, i) => chunk([{ text: piece }], i === pieces.length - 1 && !signature ? finishReason : undefined))),
    ...(calls.length === 0 && signature ? [chunk([{ text: '', ...signature }], finishReason)] : []),
  ];
  if (!sse) return sendJson(res, 200, chunks, headers);
  const paced = chunks.map((c) => formatSse(JSON.stringify(c), undefined, '\r\n'));
  return writeStream(res, SSE_HEADERS, { head: [], paced, tail: [] }, pacing.streamIntervalMs);
}
