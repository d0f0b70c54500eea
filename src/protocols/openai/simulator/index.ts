import type { ServerResponse } from 'node:http';
import { handleSpeech, handleTranscriptions, handleTranslations } from './audio.ts';
import { handleChat } from './chat.ts';
import { handleCompletions } from './completions.ts';
import { createInvalidKeyError, createOpenAIError, createOpenAIStatusError, MISSING_KEY_ERROR } from './errors.ts';
import { handleImageEdits, handleImageGenerations } from './images.ts';
import { createRealtime } from './realtime.ts';
import { handleCompact, handleResponses } from './responses.ts';
import { handleDeleteResponse, handleGetResponse, handleListInputItems } from './responses-store.ts';
import { handleEmbeddings, handleModerations, handleRerank } from './retrieval.ts';
import { createOpenAIState, type MultipartRecord, type OpenAIState } from './state.ts';
import { handleCreateVideo, handleDeleteVideo, handleGetVideo, handleRemixVideo } from './video.ts';
import { sendJson, sendText, startSimServer, type SimRequest } from '../../../simulators/sim-server.ts';
import { SIMULATOR_KEY } from './key.ts';
import { TINY_PNG } from '../../../simulators/media.ts';
import type { Simulator, SimulatorOptions } from '../../../simulators/types.ts';

/** The OpenAI simulator: a Simulator plus the multipart requests it parsed (fields and file names). */
export interface OpenAISimulator extends Simulator {
  multipart: MultipartRecord[];
}

type Handler = (state: OpenAIState, req: SimRequest, res: ServerResponse) => void | Promise<void>;

const ROUTES: Record<string, Handler> = {
  'POST /v1/chat/completions': handleChat,
  'POST /v1/completions': handleCompletions,
  'POST /v1/responses': handleResponses,
  'POST /v1/responses/compact': handleCompact,
  'POST /v1/embeddings': handleEmbeddings,
  'POST /v1/moderations': handleModerations,
  'POST /v1/rerank': handleRerank,
  'POST /v1/images/generations': handleImageGenerations,
  'POST /v1/images/edits': handleImageEdits,
  'POST /v1/audio/speech': handleSpeech,
  'POST /v1/audio/transcriptions': handleTranscriptions,
  'POST /v1/audio/translations': handleTranslations,
  'POST /v1/videos': handleCreateVideo,
  'GET /v1/models': (_state, _req, res) => sendJson(res, 200, { object: 'list', data: MODELS }),
};

/** Models GET /v1/models lists (shape of fixtures/openai/models-list.json). */
const MODELS = [
  ['gpt-4o-mini', 1721172741],
  ['gpt-4o', 1715367049],
  ['gpt-4.1', 1744316542],
  ['gpt-3.5-turbo-instruct', 1692901427],
  ['text-embedding-3-small', 1705948997],
  ['text-embedding-3-large', 1705953180],
  ['dall-e-2', 1698798177],
  ['dall-e-3', 1698785189],
  ['gpt-image-1', 1745517030],
  ['tts-1', 1681940951],
  ['whisper-1', 1677532384],
  ['gpt-4o-mini-transcribe', 1742068463],
  ['omni-moderation-latest', 1731689265],
  ['sora-2', 1759708615],
  ['gpt-realtime', 1756271701],
].map(([id, created]) => ({ id, object: 'model', created, owned_by: 'system' }));

/** Starts a simulated OpenAI API; `url` is `http://127.0.0.1:P/v1`. */
export async function startOpenAISimulator(options: SimulatorOptions = {}): Promise<OpenAISimulator> {
  const state = createOpenAIState(options.key ?? SIMULATOR_KEY, options.streamEvents, options.streamIntervalMs ?? 0);
  state.cachedInputTokens = options.cachedInputTokens ?? 0;
  const realtime = createRealtime(state);
  const sim = await startSimServer({
    options,
    basePath: '/v1',
    errorBody: createOpenAIStatusError,
    handle: (req, res) => handleOpenAI(state, req, res),
    upgrade: realtime.upgrade,
    onClose: realtime.close,
  });
  state.origin = sim.url.slice(0, -'/v1'.length);
  const reset = sim.reset;
  return Object.assign(sim, {
    multipart: state.multipart,
    reset(): void {
      reset();
      state.multipart.length = 0;
    },
  });
}

function handleOpenAI(state: OpenAIState, req: SimRequest, res: ServerResponse): void | Promise<void> {
  if (req.method === 'GET' && req.path.startsWith('/files/')) return serveFile(state, req.path, res);
  const auth = req.headers.authorization;
  if (auth === undefined || !auth.startsWith('Bearer ')) return sendJson(res, 401, MISSING_KEY_ERROR);
  const key = auth.slice(7);
  if (key !== state.key) return sendJson(res, 401, createInvalidKeyError(key));
  const handler = ROUTES[`${req.method} ${req.path}`];
  if (handler) return handler(state, req, res);
  if (req.method === 'GET' && req.path.startsWith('/v1/videos/')) return handleGetVideo(state, req, res);
  if (req.method === 'DELETE' && req.path.startsWith('/v1/videos/')) return handleDeleteVideo(state, req, res);
  if (req.method === 'POST' && /^\/v1\/videos\/[^/]+\/remix$/.test(req.path)) return handleRemixVideo(state, req, res);
  if (req.path.startsWith('/v1/responses/')) {
    if (req.method === 'GET') return (req.path.endsWith('/input_items') ? handleListInputItems : handleGetResponse)(state, req, res);
    if (req.method === 'DELETE') return handleDeleteResponse(state, req, res);
  }
  if (req.method === 'GET' && req.path.startsWith('/v1/models/')) {
    const id = decodeURIComponent(req.path.slice('/v1/models/'.length));
    const model = MODELS.find((m) => m.id === id);
    if (model) return sendJson(res, 200, model);
    return sendJson(res, 404, createOpenAIError(`The model '${id}' does not exist`, 'invalid_request_error', 'model', 'model_not_found'));
  }
  sendJson(res, 404, createOpenAIError(`Invalid URL (${req.method} ${req.path})`));
}

/** GET /files/<id>.png: the bytes behind image URLs (no auth, like a signed blob URL). */
function serveFile(state: OpenAIState, path: string, res: ServerResponse): void {
  const id = path.slice('/files/'.length, -'.png'.length);
  if (!path.endsWith('.png') || !state.files.has(id)) return sendText(res, 404, 'Not Found', 'text/plain');
  sendText(res, 200, TINY_PNG, 'image/png');
}
