import { describe, expect, it } from 'vitest';
import type { CompiledConfig } from '../../../src/config/types.ts';
import { defineSetLimits } from '../../../src/console/overrides/define-override-actions.ts';
import { checkKeyEntry } from '../../../src/console/overrides/validate-key-entry.ts';

describe('checking a console change against gateway.yaml key entries', () => {
  it('refuses a limit too large to be a number (JSON 1e400 reads as Infinity, which would be stored as null)', () => {
    const entry = { name: 'team', sha256: '0'.repeat(64), models: ['*'], limits: { rpm: JSON.parse(`1${'0'.repeat(400)}`) } };
    expect(() => checkKeyEntry(entry)).toThrow(expect.objectContaining({ status: 400, code: 'invalid_override', message: expect.stringContaining('limits.rpm') }));
  });

  it('accepts finite whole limits', () => {
    expect(() => checkKeyEntry({ name: 'team', sha256: '0'.repeat(64), models: ['*'], limits: { rpm: 10, tpm: 0 } })).not.toThrow();
  });

  it.each([0, false, ''])('refuses a budget of %j rather than storing it (only null removes a budget)', (budget) => {
    const base = { keys: [{ name: 'team', secret: { env: 'T' }, models: ['*'], limits: {}, strict: false }] } as unknown as CompiledConfig;
    expect(() => defineSetLimits(base, 'team', {}, budget)({ keys: {}, issued: [] })).toThrow(expect.objectContaining({ status: 400, code: 'invalid_override' }));
  });
});
