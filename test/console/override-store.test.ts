import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { createOverrideStore } from '../../src/console/overrides/create-override-store.ts';
import { readOverrides } from '../../src/console/overrides/read-overrides.ts';
import { startOverrideControl } from '../../src/console/overrides/start-override-control.ts';
import type { Overrides } from '../../src/console/types.ts';

/** Where the overrides are kept with the memory store, and what happens when that place fails. */
const silent = pino({ level: 'silent' });

describe('the overrides file', () => {
  it('is read by a second control on the same folder within its poll, as another process would', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'overrides-'));
    const seen: Overrides[] = [];
    const writer = await startOverrideControl(createOverrideStore(undefined, dir), silent, () => undefined);
    const reader = await startOverrideControl(createOverrideStore(undefined, dir), silent, (overrides) => seen.push(overrides));
    try {
      await writer.change('ops', 'team', (overrides) => ({ ...overrides, keys: { team: { disabled: true } } }));
      await expect.poll(() => seen.at(-1)?.keys, { timeout: 3000 }).toEqual({ team: { disabled: true } });
      expect(reader.current().keys).toEqual({ team: { disabled: true } });
    } finally {
      writer.close();
      reader.close();
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('refuses a change it cannot write with 503 overrides_not_stored, and changes nothing', async () => {
    const control = await startOverrideControl(createOverrideStore(undefined, '/nonexistent/config-folder'), silent, () => undefined);
    try {
      const failure = await control.change('ops', 'team', (o) => ({ ...o, keys: { team: { disabled: true } } })).catch((error) => error);
      expect(failure).toMatchObject({ status: 503, code: 'overrides_not_stored' });
      expect(failure.message).toContain('/nonexistent/config-folder/.gateway-overrides.json');
      expect(control.current()).toEqual({ keys: {}, issued: [] });
    } finally {
      control.close();
    }
  });

  it('stops the start when the stored text is not overrides, rather than dropping them', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'overrides-'));
    await writeFile(join(dir, '.gateway-overrides.json'), '{"keys": []}');
    await expect(startOverrideControl(createOverrideStore(undefined, dir), silent, () => undefined)).rejects.toThrow(/not \{ keys/);
    await rm(dir, { recursive: true, force: true });
    expect(() => readOverrides('not json')).toThrow();
    expect(readOverrides(undefined)).toEqual({ keys: {}, issued: [] });
  });

  it('keeps the last good overrides when a poll reads a damaged file, and refuses changes with 503 until it is mended', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'overrides-'));
    const good = { keys: { team: { limits: { rpm: 1 } } }, issued: [] };
    await writeFile(join(dir, '.gateway-overrides.json'), JSON.stringify(good));
    const applied: Overrides[] = [];
    const control = await startOverrideControl(createOverrideStore(undefined, dir), silent, (o) => void applied.push(o));
    try {
      await writeFile(join(dir, '.gateway-overrides.json'), '{"keys":{},"issued":[{}]}');
      await new Promise((resolve) => setTimeout(resolve, 1000));
      expect(applied).toEqual([good]);
      expect(control.current()).toEqual(good);
      const failure = await control.change('ops', 'team', (o) => o).catch((error) => error);
      expect(failure).toMatchObject({ status: 503, code: 'overrides_not_stored' });
    } finally {
      control.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
