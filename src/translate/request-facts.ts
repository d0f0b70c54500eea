/**
 * Request facts of a translated chat call: the vendor protocol's defaults, overridden by the vendor's and
 * then the model's `request:` in YAML. They decide which field carries the output-token limit on
 * OpenAI-protocol vendors, which encoded fields a compatible vendor rejects (dropped and listed in
 * `x-gateway-dropped-fields`, or a 400 under `strict`), the ranges of temperature and top_p (a value
 * outside is clamped, or a 400 `parameter_out_of_range` under `strict`), and the reasoning request shape
 * (a name the vendor protocol defines, passed to its encoder).
 */
import type { ModelEntry, NumberRange, RequestFacts, VendorEntry } from '../config/types.ts';
import { GatewayError } from '../errors.ts';
import type { CanonicalRequest } from './canonical.ts';
import type { FieldPolicy } from './field-policy.ts';
import { readOwn } from '../lib/read-own.ts';

/**
 * The facts of one call: the protocol's own (`base`, its adapter's `requestFacts`), then the vendor's,
 * then the model's, field by field.
 */
export function getRequestFacts(base: RequestFacts, vendor: VendorEntry, model: ModelEntry): RequestFacts {
  if (!vendor.request && !model.request) return base;
  const layers = [base, vendor.request ?? {}, model.request ?? {}];
  const facts: RequestFacts = { ranges: {} };
  for (const layer of layers) {
    if (layer.maxTokensField) facts.maxTokensField = layer.maxTokensField;
    if (layer.unsupportedFields) facts.unsupportedFields = layer.unsupportedFields;
    if (layer.reasoning) facts.reasoning = layer.reasoning;
    if (layer.ranges?.temperature) facts.ranges!.temperature = { ...facts.ranges!.temperature, ...layer.ranges.temperature };
    if (layer.ranges?.topP) facts.ranges!.topP = { ...facts.ranges!.topP, ...layer.ranges.topP };
  }
  return facts;
}

/**
 * The request with temperature and top_p inside the facts' ranges: clamped, or a 400 naming the
 * client's field when the policy is strict. `names` maps canonical names to the client's field paths.
 */
export function applyRanges(request: CanonicalRequest, facts: RequestFacts, policy: FieldPolicy, names: Readonly<Record<string, string>>): CanonicalRequest {
  const temperature = fitRange(request.temperature, facts.ranges?.temperature, policy, names.temperature ?? 'temperature');
  const topP = fitRange(request.topP, facts.ranges?.topP, policy, names.topP ?? 'top_p');
  if (temperature === request.temperature && topP === request.topP) return request;
  return { ...request, temperature, topP };
}

/** `value` inside `range`: unchanged, clamped, or a 400 `parameter_out_of_range` naming `field` when strict. */
export function fitRange(value: number | undefined, range: NumberRange | undefined, policy: FieldPolicy, field: string): number | undefined {
  if (value === undefined || !range) return value;
  const min = range.min ?? -Infinity;
  const max = range.max ?? Infinity;
  if (value >= min && value <= max) return value;
  if (policy.strict) {
    throw new GatewayError(400, 'parameter_out_of_range', `The field '${field}' must be between ${range.min ?? '-inf'} and ${range.max ?? 'inf'} for this model; got ${value}.`, { param: field });
  }
  return Math.min(max, Math.max(min, value));
}

/** Canonical names of encoded fields whose snake_case form is not their name (`stop`). */
const CANONICAL: Readonly<Record<string, string>> = { stop: 'stopSequences', max_completion_tokens: 'maxTokens' };

/**
 * Drops the encoded fields the vendor rejects, each named through `policy` in the client's terms where
 * the client style has its own name for it (`names`, canonical -> client path), else as the vendor's.
 */
export function dropUnsupportedFields(body: Record<string, unknown>, facts: RequestFacts, policy: FieldPolicy, names: Readonly<Record<string, string>>): void {
  const fields = facts.unsupportedFields;
  if (fields === undefined) return;
  for (const field of fields) {
    if (body[field] === undefined) continue;
    const canonical = readOwn(CANONICAL, field) ?? field.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase());
    policy.drop(readOwn(names, canonical) ? canonical : field, 'the vendor of this model does not accept it');
    delete body[field];
  }
}
