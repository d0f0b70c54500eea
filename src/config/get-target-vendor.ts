import type { SchemaModel, SchemaTargetRef } from '../../generated/config-types.ts';

/**
 * The vendor a model's target reaches, as gateway.yaml names it: the target's own `vendor`, or the vendor of
 * the model it names (undefined when that model is unknown or has none; `gateway check` reports those).
 */
export function getTargetVendor(models: Record<string, SchemaModel>, ref: SchemaTargetRef): string | undefined {
  if (typeof ref === 'string') return models[ref]?.vendor;
  return 'vendor' in ref ? ref.vendor : models[ref.model]?.vendor;
}
