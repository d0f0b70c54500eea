/**
 * The folders `npm run bench -- --profile DIR` has each proxy write its `--cpu-prof` files into (DIR/floor,
 * DIR/gateway): emptied of an earlier run's profiles before the proxies start, and read back after the run.
 */
import { mkdir, readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { getBusyMs, type CpuProfile } from './profile-summary.ts';

/** The proxies that are profiled, each into its own folder of DIR. */
export const PROFILED_PROXIES = ['floor', 'gateway'] as const;

const listProfiles = async (dir: string) => (await readdir(dir).catch(() => [] as string[])).filter((f) => f.endsWith('.cpuprofile'));

/**
 * Makes DIR/floor and DIR/gateway and deletes the profiles an earlier run left there: the split reads the
 * busiest file of a folder, which would otherwise be an older, longer run's, of a bundle since rebuilt.
 */
export async function clearProfileDir(dir: string): Promise<void> {
  for (const name of PROFILED_PROXIES) {
    const folder = join(dir, name);
    await mkdir(folder, { recursive: true });
    for (const file of await listProfiles(folder)) await rm(join(folder, file), { force: true });
  }
}

/** The busiest profile of one proxy's folder (a loader or worker thread writes an idle one beside it). */
export async function readBusiestProfile(dir: string): Promise<{ file: string; profile: CpuProfile; busyMs: number } | undefined> {
  let busiest: { file: string; profile: CpuProfile; busyMs: number } | undefined;
  for (const f of await listProfiles(dir)) {
    const profile = JSON.parse(await readFile(join(dir, f), 'utf8')) as CpuProfile;
    const busyMs = getBusyMs(profile);
    if (!busiest || busyMs > busiest.busyMs) busiest = { file: join(dir, f), profile, busyMs };
  }
  return busiest;
}
