/**
 * The rule for request fields that cannot be translated to the target protocol.
 *
 * - A field that changes what the model produces (e.g. `logprobs`, `n` > 1, `seed` on a protocol without
 *   one, a server-side tool, an audio part) and has no equivalent on the target is DROPPED, or, when the
 *   model (`models.<id>.chat.strict`) or the client key (`keys[].strict`) is strict, REJECTED with
 *   HTTP 400 `untranslatable_field` naming the field in `param` and in the message.
 * - A field that only affects vendor-side bookkeeping (end-user id, metadata, storage, service tier,
 *   safety settings) is dropped silently even in strict mode: losing it cannot change the answer.
 * - JSON Schema keywords the generate-content schema subset lacks are handled by the rule documented in
 *   `protocols/gemini/translate/schema.ts`, never by this policy.
 * Dropped field names are reported to the client in the `x-gateway-dropped-fields` response header
 * (encoded and bounded by `dropped-fields-header.ts`).
 */
import { GatewayError } from '../errors.ts';
import { clipClientText } from '../lib/clip-text.ts';
import { readOwn } from '../lib/read-own.ts';

/** Decides, per request, what happens to an untranslatable field. */
export interface FieldPolicy {
  readonly strict: boolean;
  /**
   * Records `field` as dropped, or throws a 400 naming it when strict. `field` is the client's field
   * path, or a canonical field name (e.g. `topK`) that the client adapter's name table turns into one.
   * `reason` ends the message.
   */
  drop(field: string, reason?: string): void;
  /** Records `field` as dropped whatever the mode (bookkeeping-only fields). */
  ignore(field: string): void;
  /** Field names dropped so far, in order. */
  readonly dropped: readonly string[];
}

/** Creates the policy of one request. */
export function createFieldPolicy(strict: boolean, names: Readonly<Record<string, string>> = {}): FieldPolicy {
  return new RequestFieldPolicy(strict, names);
}

/** The policy of one request: a class (its methods shared), not two closures per request. */
class RequestFieldPolicy implements FieldPolicy {
  readonly dropped: string[] = [];

  constructor(
    readonly strict: boolean,
    private readonly names: Readonly<Record<string, string>>,
  ) {}

  drop(name: string, reason?: string): void {
    const field = this.readField(name);
    if (this.strict) {
      const why = reason ? `: ${reason}` : '';
      const quoted = clipClientText(field);
      throw new GatewayError(400, 'untranslatable_field', `The field '${quoted}' cannot be translated for this model${why}.`, { param: quoted });
    }
    if (!this.dropped.includes(field)) this.dropped.push(field);
  }

  ignore(name: string): void {
    const field = this.readField(name);
    if (!this.dropped.includes(field)) this.dropped.push(field);
  }

  /** The client's name for `name`: the name table's own entry, never one it inherits (a body may hold `constructor`). */
  private readField(name: string): string {
    return readOwn(this.names, name) ?? name;
  }
}

/**
 * Applies the policy to every top-level field of `body` that the decoder does not read: fields in
 * `bookkeeping` are ignored, others dropped (or rejected). `null` and `false` count as absent (a false
 * flag switches a feature off, so nothing is lost).
 */
export function checkUnknownFields(
  body: Record<string, unknown>,
  known: ReadonlySet<string>,
  bookkeeping: ReadonlySet<string>,
  policy: FieldPolicy,
): void {
  for (const key of Object.keys(body)) {
    const value = body[key];
    if (known.has(key) || value === null || value === undefined || value === false) continue;
    if (bookkeeping.has(key)) policy.ignore(key);
    else policy.drop(key);
  }
}
