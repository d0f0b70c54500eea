import type { H3Event } from 'h3';
import type { CompiledConfig, Style } from '../config/types.ts';
import type { UsageGroup } from './aggregate/usage-group.ts';

/** One usage event as the console shows it: numbers and names only, never a body or a key's secret. */
export interface UsageRow {
  /** Milliseconds since the epoch when the request ended. */
  time: number;
  key?: string;
  style: Style;
  model?: string;
  vendor?: string;
  status: number;
  error?: string;
  inputTokens: number;
  outputTokens: number;
  ttfbMs?: number;
  durationMs: number;
  costUsd?: number;
  pid: number;
}

/** A key's live usage in the console: the last minute's requests and tokens, the last hour's spend. */
export interface KeyUsage {
  requestsLastMinute: number;
  tokensLastMinute: number;
  spendLastHourUsd: number;
}

/** The console's overview: the last hour in total, per style and per model. */
export interface UsageOverview {
  total: UsageGroup;
  byStyle: Record<string, UsageGroup>;
  byModel: Record<string, UsageGroup>;
}

/** The last hour of usage, counted as it arrives and read in time independent of the request rate. */
export interface UsageAggregate {
  /** Counts a row: O(groups touched), no allocation in the steady state. */
  record(row: UsageRow): void;
  /** The overview of the hour ending at `now`; `renameModel` may show several models as one (counted as one). */
  readOverview(now?: number, renameModel?: (name: string) => string): UsageOverview;
  /** Only the total. */
  readTotal(now?: number): UsageGroup;
  /** A key's requests and tokens of the last minute and spend of the last hour. */
  readKeyUsage(name: string, now?: number): KeyUsage;
}

/** The usage events of this process: counted for the last hour as they arrive, the latest few kept as rows, and followed live. */
export interface UsageFeed {
  /** Records an event (a receiver of the gateway's `onUsage`). */
  record(event: import('../runtime/types.ts').UsageEvent): void;
  /** Records a row made elsewhere (a worker's, in the `--workers` primary). */
  add(row: UsageRow): void;
  /** Calls `listener` with every row recorded from now on (read it at once: the row object is reused); returns the function that stops it. */
  follow(listener: (row: UsageRow) => void): () => void;
  /** The latest rows kept (at most 200), oldest first; the objects are reused for later rows, so read them at once. */
  listRecent(): UsageRow[];
  /** The last hour's overview and keys' usage. */
  aggregate: UsageAggregate;
}

/** What a key override changes of a key of gateway.yaml (or of a key issued in the console). */
export interface KeyOverride {
  disabled?: boolean;
  /** Replaces the key's limits (gateway.yaml's shape: rpm, tpm, concurrency). */
  limits?: { rpm?: number; tpm?: number; concurrency?: number };
  /** Replaces the key's budget (gateway.yaml's shape); null removes it. */
  budget?: { usd: number; period: 'day' | 'month'; reserve_usd?: number } | null;
}

/** A key issued in the console: gateway.yaml's key entry with its sha256 (the secret was shown once). */
export interface IssuedKey {
  name: string;
  sha256: string;
  models: string[];
  limits?: { rpm?: number; tpm?: number; concurrency?: number };
  budget?: { usd: number; period: 'day' | 'month'; reserve_usd?: number };
}

/** The console's changes over gateway.yaml, as kept in `server.store`. */
export interface Overrides {
  keys: Record<string, KeyOverride>;
  issued: IssuedKey[];
}

/** The overrides in force and how to change them (every process applies a change within a second). */
export interface OverrideControl {
  /** The overrides this process applies now. */
  current(): Overrides;
  /**
   * Applies `mutate` to the stored overrides (read again first), stores and applies the result, and logs
   * it with the admin key's name, before and after. `mutate` throws a GatewayError to refuse.
   */
  change(adminName: string, keyName: string, mutate: (overrides: Overrides) => Overrides): Promise<Overrides>;
}

/** What the console's admin API reads: set on the admin sources when `server.console` is on. */
export interface ConsoleSources {
  /** The compiled config serving now (gateway.yaml with the overrides applied). */
  getConfig(): CompiledConfig;
  /** gateway.yaml's keys before the overrides (what the overrides are shown against). */
  getBaseConfig(): CompiledConfig;
  feed: UsageFeed;
  overrides: OverrideControl;
  /** The instances sharing `server.store` on Redis, each labelled with its id and last hour in total (absent with the memory store). */
  listInstances?(): Promise<(import('./describe-instance.ts').InstanceOverview & { self: boolean })[]>;
  /** Another instance's overview as it last published it (undefined when it is not listed any more); absent with the memory store. */
  readInstance?(id: string): Promise<import('./read-instance-detail.ts').InstanceView | undefined>;
  /** Runs a playground chat (absent in a `--workers` primary, which serves no requests). */
  runPlayground?(call: Record<string, unknown>): Promise<import('./playground/run-playground.ts').PlaygroundResult>;
}

/** What a console route reads of the admin listener that serves it: the console's sources (absent: `server.console` is off). */
export interface ConsoleHost {
  console?: ConsoleSources;
}

/**
 * One console route of the admin API: method, path under `/admin/`, and its handler. The admin listener
 * admits the admin key before it runs and passes the key's name (for the change log).
 */
export interface ConsoleRoute {
  method: 'GET' | 'POST';
  path: string;
  handle(event: H3Event, host: ConsoleHost, adminName: string): unknown;
}
