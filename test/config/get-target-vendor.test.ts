import { describe, expect, it } from 'vitest';
import { getTargetVendor } from '../../src/config/get-target-vendor.ts';
import type { SchemaModel } from '../../generated/config-types.ts';

const MODELS: Record<string, SchemaModel> = { own: { vendor: 'openai' }, pooled: { targets: ['own'] } };

describe('the vendor a target reaches', () => {
  it.each([
    ['a model id', 'own', 'openai'],
    ['a model by object', { model: 'own', weight: 2 }, 'openai'],
    ['its own vendor (a model field beside it is the vendor-side name)', { vendor: 'anthropic', model: 'own' }, 'anthropic'],
    ['an unknown model', 'missing', undefined],
    ['a model without a vendor of its own', { model: 'pooled' }, undefined],
  ] as const)('%s', (_, ref, vendor) => {
    expect(getTargetVendor(MODELS, ref)).toBe(vendor);
  });
});
