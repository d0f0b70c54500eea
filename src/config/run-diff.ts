import { parseArgs } from 'node:util';
import { formatProblem } from './check.ts';
import { diffConfigFiles } from './diff-files.ts';
import { formatDiffJson, formatDiffText } from './format-diff.ts';

/**
 * `gateway diff OLD.yaml NEW.yaml [--json]`: prints what deploying NEW changes against OLD. Exit code
 * 0 when nothing changes, 1 when something does, 2 on a usage error or a file that is unreadable or
 * fails `gateway check` (its problems printed as `file:line:col: message` on stderr).
 */
export async function runDiff(args: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args, allowPositionals: true, options: { json: { type: 'boolean' } } });
  } catch (error) {
    console.error((error as Error).message);
    return 2;
  }
  const { positionals, values } = parsed;
  if (positionals.length !== 2) {
    console.error('usage: gateway diff OLD.yaml NEW.yaml [--json]');
    return 2;
  }
  const { changes, problems } = await diffConfigFiles(positionals[0], positionals[1]);
  if (problems.length) {
    for (const problem of problems) console.error(formatProblem(problem));
    return 2;
  }
  console.log(values.json ? formatDiffJson(changes) : formatDiffText(changes));
  return changes.length ? 1 : 0;
}
