import cluster from 'node:cluster';
import type { UsageEvent } from '../runtime/types.ts';
import { toUsageRow } from './create-usage-feed.ts';
import type { UsageFeed, UsageRow } from './types.ts';

/** The IPC message of a worker's usage row. */
const CONSOLE_USAGE = 'gateway:console-usage';

/** A worker's usage receiver with `--workers`: each row goes to the primary, whose admin listener serves the console. */
export function forwardUsageToPrimary(): (event: UsageEvent) => void {
  return (event) => {
    if (process.connected) process.send?.({ type: CONSOLE_USAGE, row: toUsageRow(event) });
  };
}

/** In the `--workers` primary: every worker's usage rows recorded in `feed` (the tail and overview then cover all workers). */
export function receiveWorkerUsage(feed: UsageFeed): void {
  cluster.on('message', (_worker, message: { type?: string; row?: UsageRow }) => {
    if (message?.type === CONSOLE_USAGE && message.row) feed.add(message.row);
  });
}
