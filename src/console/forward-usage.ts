import cluster from 'node:cluster';
import type { UsageEvent } from '../runtime/types.ts';
import { createEmptyRow, writeUsageRow } from './recent-rows.ts';
import type { UsageFeed, UsageRow } from './types.ts';

/** The IPC message of a worker's usage row. */
const CONSOLE_USAGE = 'gateway:console-usage';

/** A worker's usage receiver with `--workers`: each row goes to the primary, whose admin listener serves the console. */
export function forwardUsageToPrimary(): (event: UsageEvent) => void {
  // One row and one message object, rewritten per event: `process.send` serializes them at once.
  const row = createEmptyRow();
  const message = { type: CONSOLE_USAGE, row };
  return (event) => {
    if (!process.connected) return;
    writeUsageRow(row, event, Date.now());
    process.send?.(message);
  };
}

/** In the `--workers` primary: every worker's usage rows recorded in `feed` (the tail and overview then cover all workers). */
export function receiveWorkerUsage(feed: UsageFeed): void {
  cluster.on('message', (_worker, message: { type?: string; row?: UsageRow }) => {
    if (message?.type === CONSOLE_USAGE && message.row) feed.add(message.row);
  });
}
