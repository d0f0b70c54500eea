/**
 * The worker thread reloads compile in (started by compile-in-worker.ts): for each `{ id, file }` message it checks
 * and compiles the config file with the config compiler, off the main thread, and answers `{ id, config?, problems }`.
 * It stays up between reloads, so only the first one pays for loading the compiler.
 */
import { parentPort } from 'node:worker_threads';
import { compileConfigFile, formatProblem } from '../config/index.ts';
import type { WorkerAnswer } from './compile-in-worker.ts';

async function answer(file: string): Promise<WorkerAnswer> {
  try {
    const { config, problems } = await compileConfigFile(file);
    return config ? { config, problems: [] } : { problems: problems.map(formatProblem) };
  } catch (error) {
    return { problems: [`${file}: ${(error as Error).message}`] };
  }
}

parentPort!.on('message', async ({ id, file }: { id: number; file: string }) => {
  parentPort!.postMessage({ id, ...(await answer(file)) });
});
