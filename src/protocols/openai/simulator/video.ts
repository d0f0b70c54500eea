/**
 * OpenAI video (Sora) endpoints. No fixture transcripts exist; the `video` object follows the OpenAI API
 * reference (`Video`: id, object, model, status, progress, created_at, completed_at, expires_at, prompt,
 * size, seconds, remixed_from_video_id, error). A job is `queued` at creation and `completed` from the
 * first retrieval on; its content is a small MP4.
 */
import type { ServerResponse } from 'node:http';
import { TINY_MP4 } from '../../../simulators/media.ts';
import { readMultipart } from '../../../simulators/multipart.ts';
import { createMissingParamError, createOpenAIError, INVALID_JSON_ERROR } from './errors.ts';
import type { OpenAIState, SimVideo } from './state.ts';
import { readJson, sendJson, sendText, type SimRequest } from '../../../simulators/sim-server.ts';
import { isObject, nowSeconds } from '../../../simulators/text.ts';

function describeVideo(video: SimVideo, done: boolean): unknown {
  return {
    id: video.id, object: 'video', model: video.model, status: done ? 'completed' : 'queued', progress: done ? 100 : 0,
    created_at: video.createdAt, completed_at: done ? video.createdAt + 1 : null, expires_at: done ? video.createdAt + 86400 : null,
    prompt: video.prompt, size: video.size, seconds: video.seconds, remixed_from_video_id: null, error: null,
  };
}

/** POST /v1/videos (JSON, or multipart when an `input_reference` file is sent). */
export async function handleCreateVideo(state: OpenAIState, req: SimRequest, res: ServerResponse): Promise<void> {
  let fields: Record<string, any>;
  if (String(req.headers['content-type']).startsWith('multipart/')) {
    const form = await readMultipart(req);
    state.multipart.push({ path: req.path, fields: form.fields, files: form.files.map(({ data, ...f }) => ({ ...f, size: data.length })) });
    fields = form.fields;
  } else {
    const body = readJson(req.body);
    if (!isObject(body)) return sendJson(res, 400, INVALID_JSON_ERROR);
    fields = body;
  }
  if (typeof fields.prompt !== 'string') return sendJson(res, 400, createMissingParamError('prompt'));
  const video: SimVideo = {
    id: `video_${state.nextId()}`,
    model: fields.model ?? 'sora-2',
    prompt: fields.prompt,
    seconds: String(fields.seconds ?? '4'),
    size: fields.size ?? '720x1280',
    createdAt: nowSeconds(),
  };
  state.videos.set(video.id, video);
  sendJson(res, 200, describeVideo(video, false));
}

/** GET /v1/videos/{id} and GET /v1/videos/{id}/content. */
export function handleGetVideo(state: OpenAIState, req: SimRequest, res: ServerResponse): void {
  const [id, part] = req.path.slice('/v1/videos/'.length).split('/');
  const video = state.videos.get(id);
  if (!video) return sendJson(res, 404, createOpenAIError(`Video with id '${id}' not found.`, 'invalid_request_error', null, 'video_not_found'));
  if (part === undefined) return sendJson(res, 200, describeVideo(video, true));
  if (part === 'content') return sendText(res, 200, TINY_MP4, 'video/mp4');
  sendJson(res, 404, createOpenAIError(`Invalid URL (GET ${req.path})`));
}

/** DELETE /v1/videos/{id}: forgets the video. */
export function handleDeleteVideo(state: OpenAIState, req: SimRequest, res: ServerResponse): void {
  const id = req.path.slice('/v1/videos/'.length);
  if (!state.videos.delete(id)) return sendJson(res, 404, createOpenAIError(`Video with id '${id}' not found.`, 'invalid_request_error', null, 'video_not_found'));
  sendJson(res, 200, { id, object: 'video.deleted', deleted: true });
}

/** POST /v1/videos/{id}/remix (JSON `{prompt}`): a new queued video remixed from a known one. */
export function handleRemixVideo(state: OpenAIState, req: SimRequest, res: ServerResponse): void {
  const id = req.path.slice('/v1/videos/'.length, -'/remix'.length);
  const source = state.videos.get(id);
  if (!source) return sendJson(res, 404, createOpenAIError(`Video with id '${id}' not found.`, 'invalid_request_error', null, 'video_not_found'));
  const body = readJson(req.body);
  if (!isObject(body)) return sendJson(res, 400, INVALID_JSON_ERROR);
  if (typeof body.prompt !== 'string') return sendJson(res, 400, createMissingParamError('prompt'));
  const video: SimVideo = { ...source, id: `video_${state.nextId()}`, prompt: body.prompt, createdAt: nowSeconds() };
  state.videos.set(video.id, video);
  sendJson(res, 200, { ...(describeVideo(video, false) as object), remixed_from_video_id: id });
}
