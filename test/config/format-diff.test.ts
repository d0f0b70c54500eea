import { describe, expect, it } from 'vitest';
import { diffConfigs, type ConfigChange } from '../../src/config/diff.ts';
import { formatDiffJson, formatDiffText } from '../../src/config/format-diff.ts';

const DIGEST_BEFORE = '0123456789abcdef'.repeat(4);
const DIGEST_AFTER = 'fedcba9876543210'.repeat(4);

const before = {
  server: { port: 8787 },
  keys: [
    { name: 'team-a', key: 'env:TEAM_A_SECRET_SOURCE', models: ['*'] },
    { name: 'team-b', sha256: DIGEST_BEFORE, models: ['*'] },
    { name: 'team-gone', sha256: DIGEST_BEFORE, models: ['*'] },
  ],
  models: { 'gpt-4o': { vendor: 'openai' }, old: { vendor: 'openai' } },
};
const after = {
  server: { port: 8788 },
  keys: [
    { name: 'team-a', key: 'env:TEAM_A_ROTATED_SOURCE', models: ['*'] },
    { name: 'team-b', sha256: DIGEST_AFTER, models: ['*'] },
    { name: 'team-new', sha256: DIGEST_AFTER, models: ['*'] },
  ],
  models: { 'gpt-4o': { vendor: 'azure' }, 'new-model': { vendor: 'openai', upstream: '1.5' } },
};

describe('formatDiffText', () => {
  it('prints one line per change, a blank line between sections, then the count', () => {
    expect(formatDiffText(diffConfigs(before, after))).toBe(
      [
        '~ server.port: 8787 -> 8788',
        '',
        '~ models.gpt-4o.vendor: openai -> azure',
        '+ models.new-model: {"upstream":"1.5","vendor":"openai"}',
        '- models.old: {"vendor":"openai"}',
        '',
        '~ keys.team-a.key: changed (secret)',
        '~ keys.team-b.sha256: changed (secret)',
        '- keys.team-gone: {"models":["*"],"name":"team-gone","sha256":"(secret)"}',
        '+ keys.team-new: {"models":["*"],"name":"team-new","sha256":"(secret)"}',
        '',
        '8 changes: 2 added, 2 removed, 4 changed',
      ].join('\n'),
    );
  });

  it('says "no changes" when there are none', () => {
    expect(formatDiffText([])).toBe('no changes');
  });

  it('quotes strings that would read as another type, and leaves plain words bare', () => {
    const changes: ConfigChange[] = [
      { path: 'a', kind: 'changed', before: '8787', after: 8787 },
      { path: 'b', kind: 'changed', before: 'true', after: 'env:X' },
      { path: 'c', kind: 'changed', before: '', after: 'two words' },
    ];
    expect(formatDiffText(changes).split('\n').slice(0, 5)).toEqual([
      '~ a: "8787" -> 8787',
      '',
      '~ b: "true" -> env:X',
      '',
      '~ c: "" -> "two words"',
    ]);
  });
});

describe('formatDiffJson', () => {
  it('is a sorted JSON document of the changes, with a changed secret flagged and no values', () => {
    const text = formatDiffJson(diffConfigs(before, after));
    const document = JSON.parse(text);
    expect(document.changes[0]).toEqual({ path: 'server.port', kind: 'changed', before: 8787, after: 8788 });
    expect(document.changes).toContainEqual({ path: 'keys.team-a.key', kind: 'changed', secret: true });
    expect(document.changes).toHaveLength(8);
    expect(text.split('\n')[1]).toBe('{"after":8788,"before":8787,"kind":"changed","path":"server.port"},');
  });

  it('is byte-identical whatever order the configs list things in', () => {
    const shuffled = { models: after.models, keys: [...after.keys].reverse(), server: after.server };
    expect(formatDiffJson(diffConfigs(before, shuffled))).toBe(formatDiffJson(diffConfigs(before, after)));
  });

  it('is an empty list when nothing changes', () => {
    expect(JSON.parse(formatDiffJson([]))).toEqual({ changes: [] });
  });
});

describe('secrets in both outputs', () => {
  it('never print a key secret source, an env var holding it, or a digest', () => {
    const changes = diffConfigs(before, after);
    for (const text of [formatDiffText(changes), formatDiffJson(changes)]) {
      for (const secret of ['TEAM_A_SECRET_SOURCE', 'TEAM_A_ROTATED_SOURCE', DIGEST_BEFORE, DIGEST_AFTER, '0123456789']) {
        expect(text).not.toContain(secret);
      }
      expect(text).toContain('keys.team-a.key');
    }
  });
});
