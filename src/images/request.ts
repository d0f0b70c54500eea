import type { ImageOptions } from '../config/types.ts';
import { GatewayError } from '../errors.ts';
import type { RequestBody } from '../runtime/request-body.ts';
import type { OpCall } from '../runtime/types.ts';
import { applyTransform } from '../transforms/index.ts';
import { getAt, isJsonObject, setAt, type JsonObject } from '../transforms/path.ts';
import { checkImageOptions } from './options.ts';
import { checkShapeSchema } from './schemas.ts';
import { getModelShape, readBodyShape, SHAPE_B, type ImageShape } from './shape.ts';
import { checkSize } from './size.ts';
import type { ImageRequest, ResponseFormat } from './types.ts';

/** The transform that turns shape A into this model's shape, if the model names one. */
function getShapeTransform(call: OpCall, options: ImageOptions) {
  return options.transform === undefined ? undefined : call.ctx.snapshot.config.transforms[options.transform];
}

function wrongShape(modelId: string, expected: ImageShape, sent: ImageShape): GatewayError {
  const param = sent === SHAPE_B ? 'input' : 'prompt';
  const want = expected === SHAPE_B ? '`input.prompt` (with options in `parameters`)' : '`prompt`';
  const message = `Model '${modelId}' takes ${expected.label}, not ${sent.name} (\`${param}\`): send ${want}.`;
  return new GatewayError(400, 'invalid_request_error', message, { param });
}

/**
 * Validates a client's image request for its model and builds the vendor body: the body's shape is
 * detected, checked against its JSON Schema and the model's allowed values, converted by the model's
 * YAML transform when the model takes the other shape, and given the upstream model name. `n` is added
 * only when the client sent none and the model sets `default_n`.
 */
export function readImageRequest(call: OpCall, options: ImageOptions): ImageRequest {
  const modelId = call.model.id;
  const body: unknown = call.body;
  if (!isJsonObject(body)) throw new GatewayError(400, 'invalid_request_error', 'The request body must be a JSON object.');
  const clientShape = readBodyShape(body);
  const modelShape = getModelShape(options);
  const transform = clientShape === modelShape ? undefined : getShapeTransform(call, options);
  if (clientShape !== modelShape && (clientShape === SHAPE_B || !transform)) throw wrongShape(modelId, modelShape, clientShape);

  checkShapeSchema(clientShape, body);
  // Checked against its shape's schema (images-shape-a or -b): the fields it names have the types it declares.
  const checked = body as RequestBody<'ImagesShapeA'> | RequestBody<'ImagesShapeB'>;
  checkSize(getAt(body, clientShape.sizePath) as string | undefined, clientShape, modelShape, options.sizes, modelId);
  let vendorBody = checkImageOptions(body, clientShape, options, modelId);

  const sentN = getAt(body, clientShape.nPath) as number | undefined;
  const responseFormat: ResponseFormat = options.b64Only ? 'b64_json' : (checked.response_format ?? 'url');
  // response_format is the gateway's business for shape B bodies and for base64-only vendors (which reject it).
  if (modelShape === SHAPE_B || options.b64Only) {
    const { response_format: _format, ...rest } = vendorBody;
    vendorBody = rest;
  }
  if (transform) {
    vendorBody = applyTransform(transform, vendorBody);
    checkShapeSchema(modelShape, vendorBody);
  }
  vendorBody = { ...vendorBody, model: call.target.upstream };
  if (sentN === undefined && options.defaultN !== undefined) vendorBody = setAt(vendorBody, modelShape.nPath, options.defaultN);
  return { vendorBody, n: sentN ?? 1, nSent: sentN !== undefined, nParam: clientShape.nParam, responseFormat };
}

/** The vendor body of one fan-out part asking for `n` images. */
export function withImageCount(request: ImageRequest, options: ImageOptions, n: number): JsonObject {
  return setAt(request.vendorBody, getModelShape(options).nPath, n);
}
