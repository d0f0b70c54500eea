import type { CanonicalRequest } from '../../translate/canonical.ts';
import { readNumberField } from '../../translate/read-field.ts';

/** The sampling fields of the OpenAI request bodies: canonical name -> body field. */
const SAMPLING_FIELDS = {
  temperature: 'temperature',
  topP: 'top_p',
  presencePenalty: 'presence_penalty',
  frequencyPenalty: 'frequency_penalty',
  seed: 'seed',
} as const;

/** A canonical sampling field. */
export type SamplingField = keyof typeof SAMPLING_FIELDS;

/** Every sampling field: what chat completions and completions read (Responses reads temperature and top_p). */
export const ALL_SAMPLING_FIELDS = Object.keys(SAMPLING_FIELDS) as SamplingField[];

/**
 * The sampling fields `fields` of an OpenAI request body (chat completions, completions, responses), in
 * canonical names: each a finite number, undefined when absent, else a 400 naming the body field.
 */
export function readSamplingFields<F extends SamplingField>(body: Record<string, unknown>, fields: readonly F[]): Pick<CanonicalRequest, F> {
  if ((fields as readonly SamplingField[]) === ALL_SAMPLING_FIELDS) return readAllSamplingFields(body) as Pick<CanonicalRequest, F>;
  const out: Partial<Record<SamplingField, number | undefined>> = {};
  for (const field of fields) out[field] = readNumberField(body[SAMPLING_FIELDS[field]], SAMPLING_FIELDS[field]);
  return out as Pick<CanonicalRequest, F>;
}

/**
 * Every sampling field, each read by name (chat completions and completions, at every request): what the
 * loop gives for ALL_SAMPLING_FIELDS, in its order, without a load and a store through a computed key per field.
 */
function readAllSamplingFields(body: Record<string, unknown>): Pick<CanonicalRequest, SamplingField> {
  return {
    temperature: readNumberField(body.temperature, 'temperature'),
    topP: readNumberField(body.top_p, 'top_p'),
    presencePenalty: readNumberField(body.presence_penalty, 'presence_penalty'),
    frequencyPenalty: readNumberField(body.frequency_penalty, 'frequency_penalty'),
    seed: readNumberField(body.seed, 'seed'),
  };
}
