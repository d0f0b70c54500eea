/**
 * `npm run bench -- --baseline REF`: the gateway of another commit, bundled from a temporary git worktree of
 * REF into `dist/gateway-baseline.mjs` and run exactly as the gateway under test is (as deployed), so that a
 * change is measured as DEVELOPERS.md asks: main before and after, interleaved, in one run.
 */
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

/** Where the baseline gateway's bundle is written. */
export const BASELINE_BUNDLE = 'dist/gateway-baseline.mjs';

function git(args: string[], cwd = process.cwd()): string {
  const result = spawnSync('git', args, { cwd, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`git ${args.join(' ')} failed: ${result.stderr.trim()}`);
  return result.stdout.trim();
}

/** Bundles the gateway of `ref` (a commit, branch or tag) into {@link BASELINE_BUNDLE}; returns its short commit. */
export async function buildBaseline(ref: string): Promise<string> {
  const commit = git(['rev-parse', '--short', `${ref}^{commit}`]);
  const dir = await mkdtemp(join(tmpdir(), 'gateway-baseline-'));
  try {
    git(['worktree', 'add', '--detach', dir, commit]);
    await symlink(resolve('node_modules'), join(dir, 'node_modules'));
    const built = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/bundle.ts', 'src/cli.ts', resolve(BASELINE_BUNDLE)], { cwd: dir, encoding: 'utf8' });
    if (built.status !== 0) throw new Error(`bundling ${ref} failed: ${built.stderr.trim()}`);
    return commit;
  } finally {
    spawnSync('git', ['worktree', 'remove', '--force', dir]);
    await rm(dir, { recursive: true, force: true });
  }
}

/** gateway.yaml as it was at `commit`: the routes and models its gateway knows. */
export function readBaselineDefaults(commit: string): string {
  return git(['show', `${commit}:gateway.yaml`]);
}

/** Whether the gateway at `commit` has metrics (`src/metrics/`, served with `server.admin`). */
export function hasMetrics(commit: string): boolean {
  return spawnSync('git', ['cat-file', '-e', `${commit}:src/metrics/index.ts`]).status === 0;
}
