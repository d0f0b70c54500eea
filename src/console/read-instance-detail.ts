import { inflateRawSync } from 'node:zlib';
import type { ValueStore } from '../limits/store.ts';
import { MAX_GROUPS } from './aggregate/read-group-set.ts';
import type { UsageGroup } from './aggregate/usage-group.ts';
import { PUBLISHED_ROWS, type InstanceOverview } from './describe-instance.ts';
import { instanceDetailKey, instanceKey } from './instance-index.ts';
import { readPublishedTotal } from './read-instances.ts';
import { parseStored, readFiniteNumber, readPublishedGroup } from './read-published-group.ts';
import type { UsageOverview, UsageRow } from './types.ts';

/** Another instance's overview as a console shows it: its total, per style, per model, and its latest rows. */
export interface InstanceView extends UsageOverview, Omit<InstanceOverview, 'summary' | 'series'> {
  recent: UsageRow[];
}

/** Largest published detail read (base64 of deflated JSON), and largest JSON it may inflate to. */
const MAX_STORED = 1 << 20;
const MAX_INFLATED = 4 << 20;

/** A published detail's JSON value (see describe-instance.ts), or undefined when it is not one (whatever it holds). */
function inflateStored(text: string | undefined): any {
  if (text === undefined || text.length > MAX_STORED) return undefined;
  try {
    return parseStored(inflateRawSync(Buffer.from(text, 'base64'), { maxOutputLength: MAX_INFLATED }).toString('utf8'));
  } catch {
    return undefined;
  }
}

/** Longest name or text read from another instance's value (the page cuts shorter still). */
const MAX_TEXT = 200;

const readText = (value: unknown) => (typeof value === 'string' ? value.slice(0, MAX_TEXT) : undefined);
const readOptionalNumber = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? value : undefined);

/** Published groups by name: at most one more than the overview lists (with `(others)`), each well formed. */
function readGroups(value: unknown): Record<string, UsageGroup> {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return {};
  return Object.fromEntries(
    Object.entries(value)
      .slice(0, MAX_GROUPS + 1)
      .flatMap(([name, group]) => {
        const read = readPublishedGroup(group);
        return read ? [[name.slice(0, MAX_TEXT), read]] : [];
      }),
  );
}

/** A published row with every field of its type (texts cut, numbers finite), or undefined when it is not an object. */
function readRow(value: any): UsageRow | undefined {
  if (!value || typeof value !== 'object') return undefined;
  return {
    time: readFiniteNumber(value.time),
    key: readText(value.key),
    style: (readText(value.style) ?? '') as UsageRow['style'],
    model: readText(value.model),
    vendor: readText(value.vendor),
    status: readFiniteNumber(value.status),
    error: readText(value.error),
    inputTokens: readFiniteNumber(value.inputTokens),
    outputTokens: readFiniteNumber(value.outputTokens),
    ttfbMs: readOptionalNumber(value.ttfbMs),
    durationMs: readFiniteNumber(value.durationMs),
    costUsd: readOptionalNumber(value.costUsd),
    pid: readFiniteNumber(value.pid),
  };
}

/**
 * Instance `id`'s overview as it last published it (see publish-instance.ts), every value checked (another
 * process's value is not trusted to be well formed): undefined when its total is absent or damaged; damaged
 * breakdowns or rows are left out.
 */
export async function readInstanceDetail(values: ValueStore, id: string): Promise<InstanceView | undefined> {
  const [totalText, detailText] = await Promise.all([values.get(instanceKey(id)), values.get(instanceDetailKey(id))]);
  const total = readPublishedTotal(totalText);
  if (!total || total.id !== id) return undefined;
  const detail = inflateStored(detailText);
  const rows: unknown[] = detail?.id === id && Array.isArray(detail.recent) ? detail.recent.slice(-PUBLISHED_ROWS) : [];
  return {
    id,
    updatedAt: total.updatedAt,
    total: { summary: total.summary, series: total.series },
    byStyle: detail?.id === id ? readGroups(detail.byStyle) : {},
    byModel: detail?.id === id ? readGroups(detail.byModel) : {},
    recent: rows.flatMap((row) => readRow(row) ?? []),
  };
}
