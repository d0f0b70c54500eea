import { parseArgs } from 'node:util';
import { formatProblem } from './check.ts';
import { diffConfigFiles } from './diff-files.ts';
import { formatDiffJson, formatDiffText } from './format-diff.ts';

const USAGE = 'usage: gateway diff OLD.yaml NEW.yaml [--json]\n       gateway diff --overrides CONFIG.yaml [--json]';

/** The Redis values of `url` for `gateway diff --overrides` (nothing logged: a failure is the diff's problem). */
async function openRedisValues(url: string) {
  const [{ createRedisStore }, { default: pino }] = await Promise.all([import('../limits/redis-store.ts'), import('pino')]);
  const store = await createRedisStore({ url, failOpen: false, log: pino({ level: 'silent' }) });
  return { values: store.values!, close: () => store.close() };
}

/**
 * `gateway diff OLD.yaml NEW.yaml [--json]`: prints what deploying NEW changes against OLD.
 * `gateway diff --overrides CONFIG.yaml [--json]`: prints what the console's overrides (read from the
 * config's `server.store`) change over CONFIG, key by key. Exit code 0 when nothing changes, 1 when
 * something does, 2 on a usage error, a file that is unreadable or fails `gateway check` (its problems
 * printed as `file:line:col: message` on stderr), or overrides that cannot be read.
 */
export async function runDiff(args: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args, allowPositionals: true, options: { json: { type: 'boolean' }, overrides: { type: 'boolean' } } });
  } catch (error) {
    console.error((error as Error).message);
    return 2;
  }
  const { positionals, values } = parsed;
  if (positionals.length !== (values.overrides ? 1 : 2)) {
    console.error(USAGE);
    return 2;
  }
  const { changes, problems } = values.overrides
    ? await (await import('../console/overrides/diff-overrides.ts')).diffOverrides(positionals[0], process.env, openRedisValues)
    : await diffConfigFiles(positionals[0], positionals[1]);
  if (problems.length) {
    for (const problem of problems) console.error(formatProblem(problem));
    return 2;
  }
  console.log(values.json ? formatDiffJson(changes) : formatDiffText(changes));
  return changes.length ? 1 : 0;
}
