import { stringify } from 'yaml';
import type { Overrides } from '../types.ts';

const HEADER = [
  '# Console overrides over gateway.yaml, as a patch of its keys: list, entry by entry by name.',
  '# Merge each entry into the key of that name (a new name is a key issued in the console: add it);',
  '# `disabled: true` means: delete that key from gateway.yaml; `budget: null`: delete its budget.',
  '# Deploy, then clear the overrides in the console.',
].join('\n');

/** The overrides as a YAML patch to commit to gateway.yaml (`keys:` entries by name); digests only, never a secret. */
export function formatOverridesYaml(overrides: Overrides): string {
  const entries: Record<string, unknown>[] = overrides.issued.map((key) => ({ ...key }));
  for (const [name, override] of Object.entries(overrides.keys)) {
    const entry = entries.find((e) => e.name === name);
    const patch = { ...override, ...(override.budget === null ? { budget: null } : {}) };
    if (entry) Object.assign(entry, patch);
    else entries.push({ name, ...patch });
  }
  if (entries.length === 0) return `${HEADER}\n# (no overrides)\nkeys: []\n`;
  return `${HEADER}\n${stringify({ keys: entries }, { flowCollectionPadding: false })}`;
}
