import type { ModelEntry, Operation } from '../config/types.ts';
import { estimateTokens } from './estimate-tokens.ts';
import { getCost } from './get-cost.ts';

/** What one request reserves at admission: tokens against `tpm`, USD against a budget. */
export interface Reservation {
  tokens: number;
  /** The most it can cost (0 when the model has no price). */
  costUsd: number;
}

/** Where the styles put a request's output-token cap (the first one present counts). */
const OUTPUT_CAPS: readonly (readonly string[])[] = [
  ['max_completion_tokens'],
  ['max_tokens'],
  ['max_output_tokens'],
  ['generationConfig', 'maxOutputTokens'],
];

/** Operations that generate text, so reserve output tokens. */
const GENERATES_TEXT: ReadonlySet<Operation> = new Set(['chat', 'completions', 'generate-content', 'messages', 'responses', 'stream-generate-content']);

/** Operations that generate images, priced per image. */
const GENERATES_IMAGES: ReadonlySet<Operation> = new Set(['images-generations', 'images-edits']);

/**
 * The largest usage a request can have, reserved before the vendor is called: its prompt estimated from
 * the JSON body's bytes (through the one token estimator, `estimateTokens`) plus its output cap (the
 * body's max-tokens field, or the model's `chat.default_max_tokens`) times the number of choices `n`,
 * for operations that generate text; priced at the model's rates (input at the higher of the input and
 * cache-write rates, output at the higher of the output and reasoning rates), images at `n` x the image
 * price. A body that is not JSON (uploads, none) reserves nothing.
 */
export function estimateReservation(op: Operation, model: ModelEntry, body: unknown, bodyBytes: number): Reservation {
  if (!body || typeof body !== 'object') return { tokens: 0, costUsd: 0 };
  const input = estimateTokens(bodyBytes);
  const n = readPositive((body as Record<string, unknown>).n) ?? 1;
  const output = GENERATES_TEXT.has(op) ? (readOutputCap(body) ?? model.chat.defaultMaxTokens) * n : 0;
  const price = model.price;
  if (!price) return { tokens: input + output, costUsd: 0 };
  const images = GENERATES_IMAGES.has(op) ? n : 0;
  const worst = { ...price, input: Math.max(price.input, price.cacheWrite ?? 0), output: Math.max(price.output, price.reasoning ?? 0) };
  const costUsd = getCost({ inputTokens: input, outputTokens: output, images }, worst)!;
  return { tokens: input + output, costUsd };
}

function readOutputCap(body: object): number | undefined {
  for (const path of OUTPUT_CAPS) {
    let value: unknown = body;
    for (const name of path) value = value && typeof value === 'object' ? (value as Record<string, unknown>)[name] : undefined;
    const cap = readPositive(value);
    if (cap !== undefined) return cap;
  }
  return undefined;
}

function readPositive(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isInteger(value) && value > 0 ? Math.min(value, 10_000_000) : undefined;
}
