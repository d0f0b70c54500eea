/**
 * Declarative body transforms named in gateway.yaml (`transforms:`): move, set, default, replace, map
 * and drop, each written once in its own file. No eval; paths are checked at build time.
 */
export { applyTransform } from './apply.ts';
export { checkTransformOps, readTransformOp, readTransformOps, type TransformProblem } from './check.ts';
export { TRANSFORM_OPS } from './registry.ts';
