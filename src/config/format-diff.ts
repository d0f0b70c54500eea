import { SECRET_MARK } from './diff-rules.ts';
import { stringifySorted, type ConfigChange } from './diff.ts';

const SIGNS: Record<ConfigChange['kind'], string> = { added: '+', removed: '-', changed: '~' };

/** A value on one line: plain strings bare, anything that could be misread as JSON. */
function formatValue(value: unknown): string {
  if (value === SECRET_MARK) return SECRET_MARK;
  const plain = typeof value === 'string' && /^[^\s"'{}[\],#]+$/.test(value);
  if (plain && !/^(true|false|null|~)$/.test(value) && Number.isNaN(Number(value))) return value;
  return stringifySorted(value);
}

function formatChange(change: ConfigChange): string {
  const head = `${SIGNS[change.kind]} ${change.path}`;
  if (change.secret) return `${head}: changed (secret)`;
  if (change.kind === 'added') return `${head}: ${formatValue(change.after)}`;
  if (change.kind === 'removed') return `${head}: ${formatValue(change.before)}`;
  return `${head}: ${formatValue(change.before)} -> ${formatValue(change.after)}`;
}

function sectionOf(change: ConfigChange): string {
  return /^[\w-]*/.exec(change.path)![0];
}

/**
 * The diff for people (a CI comment on a pull request): one line per change (`+` added, `-` removed,
 * `~` changed), a blank line between sections, then a count; `no changes` when there are none.
 */
export function formatDiffText(changes: readonly ConfigChange[]): string {
  if (changes.length === 0) return 'no changes';
  const lines: string[] = [];
  changes.forEach((change, i) => {
    if (i > 0 && sectionOf(change) !== sectionOf(changes[i - 1])) lines.push('');
    lines.push(formatChange(change));
  });
  const count = (kind: ConfigChange['kind']) => changes.filter((c) => c.kind === kind).length;
  const noun = changes.length === 1 ? 'change' : 'changes';
  lines.push('', `${changes.length} ${noun}: ${count('added')} added, ${count('removed')} removed, ${count('changed')} changed`);
  return lines.join('\n');
}

/** The diff for programs: `{"changes":[{path, kind, before?, after?, secret?}]}`, keys sorted, one change per line. */
export function formatDiffJson(changes: readonly ConfigChange[]): string {
  if (changes.length === 0) return '{"changes":[]}';
  return `{"changes":[\n${changes.map((change) => stringifySorted(change)).join(',\n')}\n]}`;
}
