import type { Protocol } from '../config/types.ts';
import { GatewayError } from '../errors.ts';
import { getProtocolAdapter } from '../protocols/index.ts';
import type { ImageTaskProtocol } from '../protocols/types.ts';
import { nativeImageBackend } from './native-backend.ts';
import { createTaskImageBackend } from './task-backend.ts';
import type { ImageBackend } from './types.ts';

/** One task backend per protocol that generates images through asynchronous tasks. */
const taskBackends = new WeakMap<ImageTaskProtocol, ImageBackend>();

/**
 * The backend generating images at a vendor of `protocol`, read from its adapter: asynchronous tasks when
 * it declares them, the synchronous images endpoint when it forwards one; 501 for protocols with neither.
 */
export function getImageBackend(protocol: Protocol): ImageBackend {
  const adapter = getProtocolAdapter(protocol);
  const tasks = adapter.imageTasks;
  if (tasks) {
    let backend = taskBackends.get(tasks);
    if (!backend) taskBackends.set(tasks, (backend = createTaskImageBackend(tasks)));
    return backend;
  }
  if (adapter.passthrough['images-generations']) return nativeImageBackend;
  throw new GatewayError(501, 'not_implemented', `Image generation is not available for models on ${protocol} vendors.`);
}
