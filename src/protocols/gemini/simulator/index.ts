import { findSignatureProblem } from './thinking.ts';
import type { ServerResponse } from 'node:http';
import { answerGenerate, countGeminiPrompt, findGenerateProblem } from './generate.ts';
import { createGoogleError } from './google-error.ts';
import { SIMULATOR_KEY } from './key.ts';
import { readJson, sendJson, startSimServer, type SimRequest } from '../../../simulators/sim-server.ts';
import { createEmbedding, createIdMaker, isObject, readText } from '../../../simulators/text.ts';
import type { Simulator, SimulatorOptions } from '../../../simulators/types.ts';

const STATUS_NAMES: Record<number, [string, string]> = {
  400: ['INVALID_ARGUMENT', 'Request contains an invalid argument.'],
  401: ['UNAUTHENTICATED', 'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential.'],
  403: ['PERMISSION_DENIED', 'The caller does not have permission'],
  404: ['NOT_FOUND', 'Requested entity was not found.'],
  429: ['RESOURCE_EXHAUSTED', 'Resource has been exhausted (e.g. check quota).'],
  500: ['INTERNAL', 'An internal error has occurred. Please retry or report in https://developers.generativeai.google/guide/troubleshooting'],
  503: ['UNAVAILABLE', 'The model is overloaded. Please try again later.'],
  504: ['DEADLINE_EXCEEDED', 'Deadline expired before operation could complete.'],
};

/** The bad-key answer (fixtures/gemini/error-400.json): HTTP 400, not 401. */
const BAD_KEY = createGoogleError(400, 'INVALID_ARGUMENT', 'API key not valid. Please pass a valid API key.', [
  { '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'API_KEY_INVALID', domain: 'googleapis.com', metadata: { service: 'generativelanguage.googleapis.com' } },
  { '@type': 'type.googleapis.com/google.rpc.LocalizedMessage', locale: 'en-US', message: 'API key not valid. Please pass a valid API key.' },
]);

/** Models GET /v1beta/models lists (fixtures/gemini/models-list.json shape). */
const MODELS = [
  ['gemini-2.0-flash', '2.0', 'Gemini 2.0 Flash', 8192],
  ['gemini-2.0-flash-lite', '2.0', 'Gemini 2.0 Flash-Lite', 8192],
  ['gemini-2.5-flash', '001', 'Gemini 2.5 Flash', 65536],
  ['gemini-2.5-pro', '2.5', 'Gemini 2.5 Pro', 65536],
  ['text-embedding-004', '004', 'Text Embedding 004', 1],
  ['gemini-embedding-001', '001', 'Gemini Embedding 001', 1],
].map(([id, version, displayName, outputTokenLimit]) => {
  const embedding = String(id).includes('embedding');
  return {
    name: `models/${id}`,
    version,
    displayName,
    description: displayName,
    inputTokenLimit: embedding ? 2048 : 1048576,
    outputTokenLimit,
    supportedGenerationMethods: embedding ? ['embedContent'] : ['generateContent', 'countTokens', 'createCachedContent', 'batchGenerateContent'],
    ...(embedding ? {} : { temperature: 1, topP: 0.95, topK: 64, maxTemperature: 2 }),
  };
});

/** Google's error body for a status (status faults without a body). */
export function createGeminiStatusError(status: number): unknown {
  const [name, message] = STATUS_NAMES[status] ?? (status >= 500 ? STATUS_NAMES[500] : STATUS_NAMES[400]);
  return createGoogleError(status, name, message);
}

/** A model the simulated API knows: a listed one or any `gemini-*` name. */
function isKnownModel(model: string): boolean {
  return model.startsWith('gemini-') || MODELS.some((m) => m.name === `models/${model}`);
}

function notFound(model: string, method: string): unknown {
  const message = `models/${model} is not found for API version v1beta, or is not supported for ${method}. Call ListModels to see the list of available models and their supported methods.`;
  return createGoogleError(404, 'NOT_FOUND', message, [
    { '@type': 'type.googleapis.com/google.rpc.DebugInfo', detail: `[ORIGINAL ERROR] generic::not_found: ${message} [google.rpc.error_details_ext] { message: ${JSON.stringify(message)} }` },
  ]);
}

/**
 * Starts a simulated Gemini API; `url` is `http://127.0.0.1:P/v1beta` (the SDK's baseUrl is the origin,
 * it appends /v1beta). The key comes as `x-goog-api-key` or `?key=`; a wrong key is answered 400.
 */
export async function startGeminiSimulator(options: SimulatorOptions = {}): Promise<Simulator> {
  const key = options.key ?? SIMULATOR_KEY;
  const nextId = createIdMaker('simresp');
  const pacing = { streamEvents: options.streamEvents, streamIntervalMs: options.streamIntervalMs ?? 0, cachedInputTokens: options.cachedInputTokens };
  const handle = (req: SimRequest, res: ServerResponse): void | Promise<void> => {
    const query = new URLSearchParams(req.search);
    const given = (req.headers['x-goog-api-key'] as string | undefined) ?? query.get('key') ?? undefined;
    if (given === undefined) {
      if (req.headers.authorization !== undefined) return sendJson(res, 401, createGeminiStatusError(401));
      return sendJson(res, 403, createGoogleError(403, 'PERMISSION_DENIED', "Method doesn't allow unregistered callers (callers without established identity). Please use API Key or other form of API consumer identity to call this API."));
    }
    if (given !== key) return sendJson(res, 400, BAD_KEY);
    if (req.method === 'GET' && req.path === '/v1beta/models') return sendJson(res, 200, listModels(query));
    if (!req.path.startsWith('/v1beta/models/')) return sendJson(res, 404, createGeminiStatusError(404));
    const rest = req.path.slice('/v1beta/models/'.length);
    const colon = rest.lastIndexOf(':');
    if (req.method === 'GET' && colon < 0) {
      const model = MODELS.find((m) => m.name === `models/${decodeURIComponent(rest)}`);
      return sendJson(res, model ? 200 : 404, model ?? notFound(rest, 'get'));
    }
    if (req.method !== 'POST' || colon < 0) return sendJson(res, 404, createGeminiStatusError(404));
    const model = decodeURIComponent(rest.slice(0, colon));
    const method = rest.slice(colon + 1);
    if (!isKnownModel(model)) return sendJson(res, 404, notFound(model, method));
    const body = readJson(req.body);
    if (!isObject(body)) return sendJson(res, 400, createGoogleError(400, 'INVALID_ARGUMENT', 'Invalid JSON payload received.'));
    switch (method) {
      case 'generateContent':
      case 'streamGenerateContent': {
        const problem = findGenerateProblem(body) ?? findSignatureProblem(body);
        if (problem) return sendJson(res, 400, problem);
        return answerGenerate(res, body, model, nextId(), method === 'streamGenerateContent', query.get('alt') === 'sse', pacing);
      }
      case 'countTokens': {
        const total = countGeminiPrompt(isObject(body.generateContentRequest) ? body.generateContentRequest : body);
        return sendJson(res, 200, { totalTokens: total, promptTokensDetails: [{ modality: 'TEXT', tokenCount: total }] });
      }
      case 'embedContent':
        return sendJson(res, 200, { embedding: embed(body) });
      case 'batchEmbedContents':
        return sendJson(res, 200, { embeddings: (Array.isArray(body.requests) ? body.requests : []).map(embed) });
      default:
        return sendJson(res, 404, notFound(model, method));
    }
  };
  return startSimServer({ options, basePath: '/v1beta', errorBody: createGeminiStatusError, handle });
}

function embed(request: any): { values: number[] } {
  const text = readText(request?.content?.parts);
  const dims = typeof request?.outputDimensionality === 'number' ? request.outputDimensionality : 768;
  return { values: Array.from(createEmbedding(text, dims)) };
}

/** GET /v1beta/models with pageSize (default 50) and pageToken (opaque; here the next offset). */
function listModels(query: URLSearchParams): unknown {
  const size = Math.min(Number(query.get('pageSize') ?? 50) || 50, 1000);
  const token = query.get('pageToken');
  const offset = token ? Number(Buffer.from(token, 'base64url').toString()) || 0 : 0;
  const models = MODELS.slice(offset, offset + size);
  const next = offset + size < MODELS.length ? Buffer.from(String(offset + size)).toString('base64url') : undefined;
  return next ? { models, nextPageToken: next } : { models };
}

