import type { ImageOptions } from '../config/types.ts';
import { GatewayError } from '../errors.ts';
import { readPath, type PathSegments } from '../transforms/path.ts';
import type { ImageShapeId } from './types.ts';

/** What the gateway knows about one request shape of the spec. */
export interface ImageShape {
  id: ImageShapeId;
  /** How error messages name the shape: briefly, and with its key fields. */
  name: string;
  label: string;
  /** Where the prompt, size and n are, as field names and as parsed paths. */
  promptParam: string;
  sizeParam: string;
  nParam: string;
  sizePath: PathSegments;
  nPath: PathSegments;
  /** The separator of WIDTH and HEIGHT in this shape's sizes. */
  sizeSeparator: 'x' | '*';
}

/** The spec's shape A (chat-completions-style images protocol). */
export const SHAPE_A: ImageShape = {
  id: 'a',
  name: 'shape A',
  label: 'shape A (prompt, size WIDTHxHEIGHT)',
  promptParam: 'prompt',
  sizeParam: 'size',
  nParam: 'n',
  sizePath: readPath('size'),
  nPath: readPath('n'),
  sizeSeparator: 'x',
};

/** The spec's shape B (input/parameters envelope). */
export const SHAPE_B: ImageShape = {
  id: 'b',
  name: 'shape B',
  label: 'shape B (input.prompt, parameters.size WIDTH*HEIGHT)',
  promptParam: 'input.prompt',
  sizeParam: 'parameters.size',
  nParam: 'parameters.n',
  sizePath: readPath('parameters.size'),
  nPath: readPath('parameters.n'),
  sizeSeparator: '*',
};

/** The shape a model's vendor takes (its YAML `images.shape`). */
export function getModelShape(options: ImageOptions): ImageShape {
  return options.shape === 'envelope' ? SHAPE_B : SHAPE_A;
}

/**
 * The shape a client body is in: a top-level `input` means shape B, anything else shape A.
 * `prompt` and `input` together are ambiguous: 400.
 */
export function readBodyShape(body: Record<string, unknown>): ImageShape {
  if (body.input === undefined) return SHAPE_A;
  if (body.prompt !== undefined) {
    throw new GatewayError(
      400,
      'invalid_request_error',
      'Send either `prompt` (shape A) or `input` (shape B), not both.',
      { param: 'input' },
    );
  }
  return SHAPE_B;
}
