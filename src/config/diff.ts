import { LIST_IDENTITIES, SECRET_MARK, SECTION_ORDER, isSecretPath } from './diff-rules.ts';

/** One difference between two configs, in the user's YAML terms. */
export interface ConfigChange {
  /** Where, e.g. `models.gpt-4o.vendor`, `keys.team-b`, `routes["POST /v1/chat/completions"].schema`. */
  path: string;
  kind: 'added' | 'removed' | 'changed';
  /** The old value (secrets replaced by `(secret)`); absent for `added` and for a changed secret. */
  before?: unknown;
  /** The new value (secrets replaced by `(secret)`); absent for `removed` and for a changed secret. */
  after?: unknown;
  /** Set on a changed secret: neither value is given. */
  secret?: true;
}

/** Names of map entries, and positions (numbers) in lists without an identity. */
type Path = (string | number)[];

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** JSON with object keys sorted, so equal values have equal text. */
export function stringifySorted(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stringifySorted).join(',')}]`;
  if (isRecord(value)) {
    const keys = Object.keys(value).sort(compareText);
    return `{${keys.map((key) => `${JSON.stringify(key)}:${stringifySorted(value[key])}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** A list with an identity rule (keys, routes) as a record by identity; undefined when ids are missing or repeated. */
function keyList(value: unknown, path: Path): Record<string, unknown> | undefined {
  const identify = path.length === 1 ? LIST_IDENTITIES[path[0]] : undefined;
  if (!identify || !Array.isArray(value)) return undefined;
  const record: Record<string, unknown> = Object.create(null);
  for (const entry of value) {
    const id = identify(entry);
    if (id === undefined || Object.hasOwn(record, id)) return undefined;
    record[id] = entry;
  }
  return record;
}

/** A copy of a value with every secret below `path` replaced by {@link SECRET_MARK}. */
function redact(value: unknown, path: Path): unknown {
  if (isSecretPath(path)) return SECRET_MARK;
  if (keyList(value, path) && Array.isArray(value)) {
    const identify = LIST_IDENTITIES[path[0]];
    return value.map((entry) => redact(entry, [...path, identify(entry)!]));
  }
  if (Array.isArray(value)) return value.map((entry, i) => redact(entry, [...path, i]));
  if (isRecord(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, redact(v, [...path, k])]));
  return value;
}

/** Renders a path: plain names joined by dots, other names (dots, spaces, slashes) quoted in brackets, positions as `[i]`. */
function formatPath(path: readonly (string | number)[]): string {
  return path
    .map((part, i) =>
      typeof part === 'number' ? `[${part}]` : /^[\w-]+$/.test(part) ? `${i ? '.' : ''}${part}` : `[${JSON.stringify(part)}]`,
    )
    .join('');
}

/** Pairs of equal entries (old index, new index) in a longest common subsequence, in order. */
function matchEqualEntries(before: string[], after: string[]): [number, number][] {
  const lengths = before.map(() => new Array<number>(after.length + 1).fill(0));
  lengths.push(new Array<number>(after.length + 1).fill(0));
  for (let i = before.length - 1; i >= 0; i--) {
    for (let j = after.length - 1; j >= 0; j--) {
      lengths[i][j] = before[i] === after[j] ? lengths[i + 1][j + 1] + 1 : Math.max(lengths[i + 1][j], lengths[i][j + 1]);
    }
  }
  const pairs: [number, number][] = [];
  for (let i = 0, j = 0; i < before.length && j < after.length; ) {
    if (before[i] === after[j]) pairs.push([i++, j++]);
    else if (lengths[i + 1][j] >= lengths[i][j + 1]) i++;
    else j++;
  }
  return pairs;
}

/**
 * Lists of maps (transform ops, targets) entry by entry: equal entries are matched even when others
 * were inserted or removed around them; the unmatched ones between two matches are compared in pairs
 * (a change, at the new index), the rest are removed (old index) or added (new index).
 */
function diffList(before: unknown[], after: unknown[], path: Path, out: ConfigChange[]): void {
  const pairs = matchEqualEntries(before.map(stringifySorted), after.map(stringifySorted));
  let i = 0;
  let j = 0;
  for (const [nextI, nextJ] of [...pairs, [before.length, after.length] as [number, number]]) {
    for (; i < nextI && j < nextJ; i++, j++) diffValue(before[i], after[j], [...path, j], out);
    for (; i < nextI; i++) out.push({ path: formatPath([...path, i]), kind: 'removed', before: redact(before[i], [...path, i]) });
    for (; j < nextJ; j++) out.push({ path: formatPath([...path, j]), kind: 'added', after: redact(after[j], [...path, j]) });
    i = nextI + 1;
    j = nextJ + 1;
  }
}

function diffValue(before: unknown, after: unknown, path: Path, out: ConfigChange[]): void {
  if (stringifySorted(before) === stringifySorted(after)) return;
  if (isSecretPath(path)) {
    out.push({ path: formatPath(path), kind: 'changed', secret: true });
    return;
  }
  const beforeRecord = isRecord(before) ? before : keyList(before, path);
  const afterRecord = isRecord(after) ? after : keyList(after, path);
  if (beforeRecord && afterRecord && Array.isArray(before) === Array.isArray(after)) {
    diffRecords(beforeRecord, afterRecord, path, out);
    return;
  }
  if (Array.isArray(before) && Array.isArray(after) && [...before, ...after].some((e) => typeof e === 'object' && e)) {
    diffList(before, after, path, out);
    return;
  }
  out.push({ path: formatPath(path), kind: 'changed', before: redact(before, path), after: redact(after, path) });
}

function diffRecords(
  before: Record<string, unknown>,
  after: Record<string, unknown>,
  path: Path,
  out: ConfigChange[],
  names = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort(compareText),
): void {
  for (const name of names) {
    const at = [...path, name];
    if (!Object.hasOwn(before, name)) out.push({ path: formatPath(at), kind: 'added', after: redact(after[name], at) });
    else if (!Object.hasOwn(after, name)) out.push({ path: formatPath(at), kind: 'removed', before: redact(before[name], at) });
    else diffValue(before[name], after[name], at, out);
  }
}

function rankSection(name: string): number {
  const index = SECTION_ORDER.indexOf(name);
  return index === -1 ? SECTION_ORDER.length : index;
}

/**
 * What deploying `after` changes against `before`: both are checked config values as written in
 * gateway.yaml (not compiled), so paths read like the YAML. Sections are in {@link SECTION_ORDER}, then
 * alphabetical; names within a section alphabetical. Secret values never appear in the result.
 */
export function diffConfigs(before: unknown, after: unknown): ConfigChange[] {
  const beforeRoot = isRecord(before) ? before : {};
  const afterRoot = isRecord(after) ? after : {};
  const sections = [...new Set([...Object.keys(beforeRoot), ...Object.keys(afterRoot)])].sort(
    (a, b) => rankSection(a) - rankSection(b) || compareText(a, b),
  );
  const out: ConfigChange[] = [];
  diffRecords(beforeRoot, afterRoot, [], out, sections);
  return out;
}
