import { deflateRawSync } from 'node:zlib';
import { NO_MODEL } from './aggregate/create-usage-aggregate.ts';
import type { UsageGroup } from './aggregate/usage-group.ts';
import type { UsageFeed, UsageOverview, UsageRow } from './types.ts';

/** One gateway instance's last hour in total as it published it to the shared store (what every console lists). */
export interface InstanceOverview extends UsageGroup {
  /** `host/pid` of the process serving that instance's console. */
  id: string;
  /** When it was published (milliseconds since the epoch). */
  updatedAt: number;
}

/** One instance's breakdowns and latest rows as it published them (read when a console shows that instance). */
export interface InstanceDetail extends Omit<UsageOverview, 'total'> {
  id: string;
  updatedAt: number;
  /** Its latest usage rows, oldest first (at most {@link PUBLISHED_ROWS}). */
  recent: UsageRow[];
}

/** How many of the latest rows an instance publishes (its tail keeps 200; the others see the last few). */
export const PUBLISHED_ROWS = 20;
/** The model name published for a model gateway.yaml does not name (a client's unknown model). */
export const UNKNOWN_MODEL = 'unknown';

/**
 * What one publish writes, as the two values' texts: the total as JSON (about 2.5 KB), and the breakdowns
 * with the latest rows as JSON compressed with raw deflate, in base64 (up to about 70 KB of JSON with 20
 * models busy every minute of the hour, about 5 KB as written).
 */
export function describeInstance(id: string, feed: UsageFeed, isKnownModel: (name: string) => boolean, now: number): { total: string; detail: string } {
  const rename = (name: string) => (name === NO_MODEL || isKnownModel(name) ? name : UNKNOWN_MODEL);
  const { total, byStyle, byModel } = feed.aggregate.readOverview(now, rename);
  // Rows name keys (never a secret or digest) and models of the config only: a client's text stays on its own machine.
  const recent = feed.listRecent().slice(-PUBLISHED_ROWS).map((row) => ({ ...row, model: row.model === undefined ? undefined : rename(row.model) }));
  const overview: InstanceOverview = { id, updatedAt: now, ...total };
  const detail: InstanceDetail = { id, updatedAt: now, byStyle, byModel, recent };
  return { total: JSON.stringify(overview), detail: deflateRawSync(JSON.stringify(detail)).toString('base64') };
}

