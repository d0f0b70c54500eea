import type { ImageOptions } from '../config/types.ts';
import { GatewayError } from '../errors.ts';
import type { JsonObject } from '../transforms/path.ts';
import type { ImageShape } from './shape.ts';
import { quoteValue } from '../translate/read-field.ts';

/** The spec's values, for models whose YAML lists none. */
const SPEC_QUALITIES = ['standard', 'hd'];
const SPEC_STYLES = ['vivid', 'natural'];
const SPEC_RESPONSE_FORMATS = ['url', 'b64_json'];

function checkListed(field: string, value: unknown, allowed: readonly string[], modelId: string): void {
  if (value === undefined) return;
  if (allowed.length === 0) {
    throw new GatewayError(400, 'unsupported_parameter', `Model '${modelId}' does not take \`${field}\`.`, { param: field });
  }
  if (!allowed.includes(value as string)) {
    const message = `\`${field}\` '${quoteValue(value)}' is not supported by model '${modelId}'; supported: ${allowed.join(', ')}.`;
    throw new GatewayError(400, 'invalid_value', message, { param: field });
  }
}

/**
 * Checks `quality`, `style` and `response_format` of a (schema-checked) body against the model's lists,
 * or the spec's lists where the model declares none. `style` on a model that takes none is rejected or,
 * where the YAML says `style_unsupported: drop`, removed. Returns the body to go on with.
 */
export function checkImageOptions(body: JsonObject, shape: ImageShape, options: ImageOptions, modelId: string): JsonObject {
  if (!options.b64Only) checkListed('response_format', body.response_format, options.responseFormats ?? SPEC_RESPONSE_FORMATS, modelId);
  if (shape.id !== 'a') return body;
  checkListed('quality', body.quality, options.qualities ?? SPEC_QUALITIES, modelId);
  const styles = options.styles ?? SPEC_STYLES;
  if (body.style !== undefined && styles.length === 0 && options.styleUnsupported === 'drop') {
    const { style: _dropped, ...rest } = body;
    return rest;
  }
  checkListed('style', body.style, styles, modelId);
  return body;
}
