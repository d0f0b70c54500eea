import { GatewayError } from '../errors.ts';
import type { HandlerSet } from '../runtime/dispatch-table.ts';
import { sendJson } from '../runtime/respond.ts';
import type { OpHandler } from '../runtime/types.ts';
import { getImageBackend } from './backends.ts';
import { finishImages } from './finish.ts';
import { generateImages } from './generate.ts';
import { planImageParts } from './plan.ts';
import { readImageRequest } from './request.ts';

export { serveStoredImage, createStoredImageHandler, STORED_IMAGE_PATH } from './serve.ts';
export { IMAGE_TTL_MS, type ImageStore, type StoredImage } from './store.ts';
export { getImageStore, setImageStore } from './store-registry.ts';
export { createLocalImageStore } from './local-store.ts';

/**
 * `POST /v1/images/generations` (registered as the feature handler of `images-generations` when this
 * module loads) for every model with `images` options, whatever its vendor: validates
 * shape A or B for the model, converts with the model's YAML transform, calls the vendor (split into
 * parallel calls where the model allows), and answers the spec's `{created, data:[{url|b64_json,
 * revised_prompt}]}` — base64 downloaded or images re-hosted where asked for.
 */
export const handleImageGeneration: OpHandler = async (call) => {
  const options = call.model.images;
  const modelId = call.model.id;
  if (!options) throw new GatewayError(400, 'invalid_value', `Model '${modelId}' does not generate images.`, { param: 'model' });
  const backend = getImageBackend(call.vendor.config.protocol);
  const request = readImageRequest(call, options);
  if (request.responseFormat === 'b64_json' && backend.urlOnly && !options.b64FromUrl) {
    throw new GatewayError(400, 'invalid_value', `Model '${modelId}' answers image URLs only; \`response_format\` b64_json is not available.`, {
      param: 'response_format',
    });
  }
  const parts = planImageParts(request, options, modelId);
  const batch = await generateImages(call, backend, request, options, parts);
  const data = await finishImages(call, batch.data, request.responseFormat, options);
  if (batch.usage) call.ctx.usage = batch.usage;
  call.ctx.usage.images = data.length;
  const usage = batch.rawUsage === undefined ? {} : { usage: batch.rawUsage };
  sendJson(call.ctx, 200, { created: batch.created, data, ...batch.extras, ...usage });
};

/** Image generation, served the same way for every vendor protocol (the model's image options decide). */
export const imageHandlers: HandlerSet = { features: { 'images-generations': handleImageGeneration } };
