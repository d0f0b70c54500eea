import { isJsonObject } from '../../transforms/path.ts';
import { isRecord, readNumber } from '../../translate/helpers.ts';
import type { ProtocolAdapter, Usage } from '../types.ts';
import { SIMULATOR_KEY } from './simulator/key.ts';
import { dashscopeImageTasks } from './image-tasks.ts';
import { toText } from '../../lib/to-text.ts';

/**
 * Reads DashScope usage (`usage.input_tokens`/`output_tokens`/`total_tokens`; image tasks report none). A count
 * that is not a finite number is no count.
 */
function readUsage(json: any): Usage | undefined {
  const usage = json?.usage;
  if (!isRecord(usage)) return undefined;
  const input = readNumber(usage.input_tokens);
  const output = readNumber(usage.output_tokens);
  if (input === undefined && output === undefined) return undefined;
  return { inputTokens: input, outputTokens: output, totalTokens: readNumber(usage.total_tokens) ?? (input ?? 0) + (output ?? 0) };
}

/** DashScope's native protocol: flat `{code, message, request_id}` errors; images through asynchronous tasks. */
export const dashscopeAdapter: ProtocolAdapter = {
  protocol: 'dashscope',
  passthrough: {},
  requestHeaders: [],
  readUsage,
  usageFields: ['usage'],
  readError(status, body) {
    const known = isJsonObject(body) && typeof body.code === 'string';
    const message = known ? toText(body.message) : `The vendor answered HTTP ${status}.`;
    return { status, type: known ? toText(body.code) : 'upstream_error', message, authFailure: status === 401 || status === 403 };
  },
  imageTasks: dashscopeImageTasks,
  requestFacts: {},
  simulator: { key: SIMULATOR_KEY, load: async () => (await import('./simulator/index.ts')).startDashScopeSimulator },
};
