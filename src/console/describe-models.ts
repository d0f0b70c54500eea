import type { CompiledConfig, ModelEntry, Style, TargetEntry } from '../config/types.ts';

/** A model as the console lists it. */
export interface ModelView {
  id: string;
  /** The vendor and upstream name of the first target (the one a single-target model always uses). */
  vendor: string;
  upstream: string;
  targets: { vendor: string; upstream: string; weight: number }[];
  fallbacks: { vendor: string; upstream: string }[];
  images?: Record<string, unknown>;
  /** The transform of its image requests, as its op list. */
  transform?: { name: string; ops: unknown[] };
  /** Client styles whose routes reach it with no translation (the vendor speaks that protocol), and by translation. */
  styles: { native: Style[]; translated: Style[] };
}

/** The styles of the config's routes that name a model. */
function listModelStyles(config: CompiledConfig): Style[] {
  return [...new Set(config.routes.filter((route) => route.model.from !== 'none').map((route) => route.style))].sort();
}

function readStyles(model: ModelEntry, config: CompiledConfig, styles: Style[]) {
  const protocols = new Set([...model.targets, ...model.fallback].map((target) => config.vendors[target.vendor]?.protocol));
  return {
    native: styles.filter((style) => protocols.has(style)),
    translated: styles.filter((style) => [...protocols].some((protocol) => protocol !== style)),
  };
}

const showTarget = (target: TargetEntry) => ({ vendor: target.vendor, upstream: target.upstream });

/** Every model of the config serving now, for the console's models page (no secret: vendors are named, not their keys). */
export function describeModels(config: CompiledConfig): ModelView[] {
  const styles = listModelStyles(config);
  return Object.values(config.models).map((model) => {
    const first = model.targets[0] ?? model.fallback[0];
    const transform = model.images?.transform;
    return {
      id: model.id,
      vendor: first?.vendor ?? '',
      upstream: first?.upstream ?? '',
      targets: model.targets.map((target) => ({ ...showTarget(target), weight: target.weight })),
      fallbacks: model.fallback.map(showTarget),
      ...(model.images ? { images: { ...model.images } } : {}),
      ...(transform ? { transform: { name: transform, ops: config.transforms[transform] ?? [] } } : {}),
      styles: readStyles(model, config, styles),
    };
  });
}
