import { GatewayError } from '../errors.ts';
import { SHAPE_A, SHAPE_B, type ImageShape } from './shape.ts';

/** WIDTHxHEIGHT (shape A) and WIDTH*HEIGHT (shape B), compiled once. */
const SIZE_FORMAT: Record<ImageShape['sizeSeparator'], RegExp> = {
  x: /^[1-9][0-9]*x[1-9][0-9]*$/,
  '*': /^[1-9][0-9]*\*[1-9][0-9]*$/,
};
const UPPERCASE_X = /^[1-9][0-9]*X[1-9][0-9]*$/;

/** `size` written with another separator (`1024*1024` -> `1024x1024`). */
function withSeparator(size: string, from: string, to: string): string {
  return from === to ? size : size.replace(from, to);
}

function sizeError(shape: ImageShape, message: string): GatewayError {
  return new GatewayError(400, 'invalid_size', message, { param: shape.sizeParam });
}

/**
 * Checks the `size` of a client body in `clientShape` for a model whose vendor takes `modelShape`.
 * A size in the other shape's format is named as exactly that; a model listing `sizes` (written in its
 * own shape's format) accepts only those; otherwise any WIDTH/HEIGHT in the client shape's format passes.
 */
export function checkSize(
  value: string | undefined,
  clientShape: ImageShape,
  modelShape: ImageShape,
  sizes: readonly string[] | undefined,
  modelId: string,
): void {
  if (value === undefined) return;
  const sep = clientShape.sizeSeparator;
  const other = clientShape === SHAPE_A ? SHAPE_B : SHAPE_A;
  if (SIZE_FORMAT[other.sizeSeparator].test(value)) {
    const fixed = withSeparator(value, other.sizeSeparator, sep);
    throw sizeError(
      clientShape,
      `\`${clientShape.sizeParam}\` '${value}' uses '${other.sizeSeparator}', which is ${other.name}'s format; ` +
        `${clientShape.name} takes WIDTH${sep}HEIGHT: '${fixed}'.`,
    );
  }
  if (sizes) {
    const native = SIZE_FORMAT[sep].test(value) ? withSeparator(value, sep, modelShape.sizeSeparator) : value;
    if (sizes.includes(native) || sizes.includes(value)) return;
    const listed = sizes.map((size) => withSeparator(size, modelShape.sizeSeparator, sep)).join(', ');
    throw sizeError(clientShape, `\`${clientShape.sizeParam}\` '${value}' is not supported by model '${modelId}'; supported: ${listed}.`);
  }
  if (SIZE_FORMAT[sep].test(value)) return;
  const hint = sep === 'x' && UPPERCASE_X.test(value) ? ' with a lowercase x' : '';
  throw sizeError(clientShape, `\`${clientShape.sizeParam}\` must be WIDTH${sep}HEIGHT${hint} (e.g. '1024${sep}1024'), not '${value}'.`);
}
