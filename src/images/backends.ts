import type { Protocol } from '../config/types.ts';
import { GatewayError } from '../errors.ts';
import { dashscopeImageTasks } from '../protocols/dashscope.ts';
import { nativeImageBackend } from './native-backend.ts';
import { createTaskImageBackend } from './task-backend.ts';
import type { ImageBackend } from './types.ts';

/** The image backend of each vendor protocol that generates images. */
const BACKENDS: Partial<Record<Protocol, ImageBackend>> = {
  openai: nativeImageBackend,
  dashscope: createTaskImageBackend(dashscopeImageTasks),
};

/** The backend generating images at a vendor of `protocol`; 501 for protocols without one. */
export function getImageBackend(protocol: Protocol): ImageBackend {
  const backend = BACKENDS[protocol];
  if (!backend) throw new GatewayError(501, 'not_implemented', `Image generation is not available for models on ${protocol} vendors.`);
  return backend;
}
