import type { KeyUsage, UsageAggregate, UsageRow } from '../types.ts';
import { createGroupSet, pickGroup, sweepGroupSet } from './group-set.ts';
import { addToGroup, createGroupTally } from './group-tally.ts';
import { addToKeyTally, createKeyTally, readKeyTally, resetKeyTally, type KeyTally } from './key-tally.ts';
import { MAX_GROUPS, readGroupSet, TRACKED_GROUPS } from './read-group-set.ts';
import { readGroup } from './read-group.ts';

/** Key names are the gateway's own (gateway.yaml's and the console's); a bound keeps memory bounded all the same. */
const MAX_KEYS = 10_000;
/** The group of requests that named no model. */
export const NO_MODEL = '(none)';

/**
 * The usage aggregate of one process: per minute of the last hour (a ring of 60 reused buckets), in total,
 * per style, per model (the overview shows at most {@link MAX_GROUPS}, the rest as `(others)`) and per key, with counts,
 * errors, tokens, spend and latency and time to first token as histograms. A row stamped ahead of `clock`
 * (another process's clock) counts now.
 */
export function createUsageAggregate(clock: () => number = Date.now): UsageAggregate {
  const total = createGroupTally();
  const styles = createGroupSet(TRACKED_GROUPS);
  const models = createGroupSet(TRACKED_GROUPS);
  const keys = new Map<string, KeyTally>();
  const spareKeys: KeyTally[] = [];
  let sweptMinute = -1;

  function sweep(nowMinute: number): void {
    sweptMinute = nowMinute;
    sweepGroupSet(styles, nowMinute);
    sweepGroupSet(models, nowMinute);
    for (const [name, tally] of keys) {
      if (tally.lastMinute > nowMinute - 60) continue;
      keys.delete(name);
      resetKeyTally(tally);
      spareKeys.push(tally);
    }
  }

  function recordKey(name: string, row: UsageRow, minute: number, secondOfMinute: number): void {
    let tally = keys.get(name);
    if (!tally) {
      if (keys.size >= MAX_KEYS) return;
      tally = spareKeys.pop() ?? createKeyTally();
      keys.set(name, tally);
    }
    addToKeyTally(tally, row, minute, secondOfMinute);
  }

  return {
    record(row) {
      const now = clock();
      const time = row.time <= now && row.time > 0 ? row.time : now;
      const nowMinute = Math.floor(now / 60_000);
      if (nowMinute > sweptMinute) sweep(nowMinute);
      // Minutes and seconds of a minute are small integers: passed on without boxing a time per call.
      const minute = Math.floor(time / 60_000);
      const secondOfMinute = Math.floor((time - minute * 60_000) / 1000);
      addToGroup(total, row, minute, secondOfMinute);
      addToGroup(pickGroup(styles, row.style), row, minute, secondOfMinute);
      addToGroup(pickGroup(models, row.model ?? NO_MODEL), row, minute, secondOfMinute);
      if (row.key !== undefined) recordKey(row.key, row, minute, secondOfMinute);
    },
    readOverview: (now = clock(), renameModel) => ({ total: readGroup([total], now), byStyle: readGroupSet(styles, now), byModel: readGroupSet(models, now, renameModel) }),
    readTotal: (now = clock()) => readGroup([total], now),
    readKeyUsage(name, now = clock()) {
      const tally = keys.get(name);
      return tally ? readKeyTally(tally, now) : { requestsLastMinute: 0, tokensLastMinute: 0, spendLastHourUsd: 0 };
    },
  };
}
