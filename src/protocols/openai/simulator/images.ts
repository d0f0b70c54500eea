import type { ServerResponse } from 'node:http';
import { TINY_PNG } from '../../../simulators/media.ts';
import { readMultipart } from '../../../simulators/multipart.ts';
import { createMissingParamError, createOpenAIError, INVALID_JSON_ERROR } from './errors.ts';
import type { OpenAIState } from './state.ts';
import { readJson, sendJson, type SimRequest } from '../../../simulators/sim-server.ts';
import { countTokens, isObject, nowSeconds } from '../../../simulators/text.ts';

/** Sizes per DALL·E model (fixtures/openai/dall-e-3-notes.md); GPT image models are not checked. */
const SIZES: Record<string, string[]> = {
  'dall-e-2': ['256x256', '512x512', '1024x1024'],
  'dall-e-3': ['1024x1024', '1792x1024', '1024x1792'],
};
const DALLE3_N = createOpenAIError('You must provide n=1 for this model.');
const INVALID_SIZE = createOpenAIError('The size is not supported by this model.', 'invalid_request_error', null, 'invalid_size');
const CONTENT_POLICY = createOpenAIError(
  'Your request was rejected as a result of our safety system. Your prompt may contain text that is not allowed by our safety system.',
  'invalid_request_error',
  null,
  'content_policy_violation',
);
const MODERATION_BLOCKED = {
  error: {
    message: 'Your request was rejected by the safety system.',
    type: 'image_generation_user_error',
    param: null,
    code: 'moderation_blocked',
    moderation_details: { moderation_stage: 'input', categories: ['harassment'] },
  },
};

/**
 * Answers an image request (generation or edit) as the real API: dall-e-3 only n=1; DALL·E sizes checked;
 * a prompt containing `forbidden` is refused (DALL·E: content_policy_violation; GPT image models:
 * moderation_blocked, as fixtures/openai/dall-e-3-notes.md says they answer); `url` (default for
 * DALL·E) points at GET /files/<id>.png here, `b64_json` holds the same PNG; GPT image models always
 * answer b64_json with usage. dall-e-3 adds `revised_prompt: "Revised: <prompt>"`.
 */
function answerImages(state: OpenAIState, res: ServerResponse, p: Record<string, any>): void {
  if (typeof p.prompt !== 'string') return sendJson(res, 400, createMissingParamError('prompt'));
  const model = typeof p.model === 'string' ? p.model : 'dall-e-2';
  const gptImage = model.startsWith('gpt-image');
  const n = p.n === undefined ? 1 : Number(p.n);
  if (model === 'dall-e-3' && n !== 1) return sendJson(res, 400, DALLE3_N);
  if (!Number.isInteger(n) || n < 1 || n > 10) {
    return sendJson(res, 400, createOpenAIError(`Invalid 'n': expected an integer between 1 and 10, got ${p.n}.`, 'invalid_request_error', 'n', 'invalid_value'));
  }
  if (p.size !== undefined && SIZES[model] && !SIZES[model].includes(p.size)) return sendJson(res, 400, INVALID_SIZE);
  if (p.prompt.includes('forbidden')) return sendJson(res, 400, gptImage ? MODERATION_BLOCKED : CONTENT_POLICY);
  const b64 = gptImage || p.response_format === 'b64_json';
  const data = Array.from({ length: n }, () => {
    const image: Record<string, string> = {};
    if (b64) image.b64_json = TINY_PNG.toString('base64');
    else {
      const id = `img-${state.nextId()}`;
      state.files.add(id);
      image.url = `${state.origin}/files/${id}.png`;
    }
    if (model === 'dall-e-3') image.revised_prompt = `Revised: ${p.prompt}`;
    return image;
  });
  if (!gptImage) return sendJson(res, 200, { created: nowSeconds(), data });
  const input = countTokens(p.prompt);
  sendJson(res, 200, {
    created: nowSeconds(),
    data,
    background: p.background === 'transparent' ? 'transparent' : 'opaque',
    output_format: p.output_format ?? 'png',
    size: p.size === undefined || p.size === 'auto' ? '1024x1024' : p.size,
    quality: p.quality === undefined || p.quality === 'auto' ? 'medium' : p.quality,
    usage: { total_tokens: input + 1056 * n, input_tokens: input, output_tokens: 1056 * n, input_tokens_details: { text_tokens: input, image_tokens: 0 } },
  });
}

/** POST /v1/images/generations (JSON, shape A). */
export function handleImageGenerations(state: OpenAIState, req: SimRequest, res: ServerResponse): void {
  const body = readJson(req.body);
  if (!isObject(body)) return sendJson(res, 400, INVALID_JSON_ERROR);
  answerImages(state, res, body);
}

/** POST /v1/images/edits (multipart: `image` or `image[]` files, `prompt`, optional `mask`); records the parts. */
export async function handleImageEdits(state: OpenAIState, req: SimRequest, res: ServerResponse): Promise<void> {
  let form;
  try {
    form = await readMultipart(req);
  } catch {
    return sendJson(res, 400, createOpenAIError("Invalid Content-Type header (expected multipart/form-data).", 'invalid_request_error'));
  }
  state.multipart.push({ path: req.path, fields: form.fields, files: form.files.map(({ data, ...f }) => ({ ...f, size: data.length })) });
  if (!form.files.some((f) => f.field === 'image' || f.field === 'image[]')) return sendJson(res, 400, createMissingParamError('image'));
  answerImages(state, res, form.fields);
}
