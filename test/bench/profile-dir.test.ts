import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { clearProfileDir, readBusiestProfile } from '../../bench/profile-dir.ts';
import type { CpuProfile } from '../../bench/profile-summary.ts';

/** A profile of one busy function sampled once for `busyUs` microseconds, beside an idle sample. */
function buildProfile(busyUs: number): CpuProfile {
  return {
    nodes: [
      { id: 1, callFrame: { functionName: '(root)', url: '', lineNumber: -1 }, children: [2, 3] },
      { id: 2, callFrame: { functionName: 'serve', url: 'file:///app/src/runtime/handle-request.ts', lineNumber: 1 } },
      { id: 3, callFrame: { functionName: '(idle)', url: '', lineNumber: -1 } },
    ],
    samples: [2, 3],
    timeDeltas: [busyUs, 50_000],
  };
}

describe('the profile folders of a bench run', () => {
  const dirs: string[] = [];
  afterAll(() => Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true }))));
  const makeDir = async () => {
    const dir = await mkdtemp(join(tmpdir(), 'profile-dir-'));
    dirs.push(dir);
    return dir;
  };

  it('reads the busiest profile of a folder, not an idle thread\'s', async () => {
    const dir = await makeDir();
    await writeFile(join(dir, 'CPU.1.cpuprofile'), JSON.stringify(buildProfile(10)));
    await writeFile(join(dir, 'CPU.2.cpuprofile'), JSON.stringify(buildProfile(3000)));
    await writeFile(join(dir, 'notes.txt'), 'not a profile');
    const busiest = await readBusiestProfile(dir);
    expect(busiest).toMatchObject({ file: join(dir, 'CPU.2.cpuprofile'), busyMs: 3 });
    expect(await readBusiestProfile(join(dir, 'absent'))).toBeUndefined();
  });

  it('deletes an earlier run\'s profiles before a run, so a longer old run is never read as this one', async () => {
    const dir = await makeDir();
    await mkdir(join(dir, 'gateway'));
    await writeFile(join(dir, 'gateway', 'CPU.old.cpuprofile'), JSON.stringify(buildProfile(50_000)));
    await writeFile(join(dir, 'gateway', 'keep.txt'), 'other file');
    await clearProfileDir(dir);
    expect(await readdir(join(dir, 'gateway'))).toEqual(['keep.txt']);
    expect(await readdir(join(dir, 'floor'))).toEqual([]);
    await writeFile(join(dir, 'gateway', 'CPU.new.cpuprofile'), JSON.stringify(buildProfile(20)));
    expect((await readBusiestProfile(join(dir, 'gateway')))?.file).toBe(join(dir, 'gateway', 'CPU.new.cpuprofile'));
  });
});
