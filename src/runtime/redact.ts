/** What a secret is replaced by wherever it would leave the gateway. */
export const REDACTED = '[redacted]';

/**
 * Removes the gateway's secrets from text on its way out (vendor errors relayed to a client, log lines).
 * Built once per config snapshot; `redactText` and `redactBytes` cost one `indexOf` per form of each
 * secret and copy nothing when no secret is present.
 */
export interface Redactor {
  /** Every form searched for, longest first (empty when the gateway holds no secret). */
  readonly forms: readonly string[];
  /** `text` with every form of every secret replaced by `[redacted]`; `text` itself when none occurs. */
  redactText(text: string): string;
  /** The same for bytes (UTF-8); `bytes` itself when no secret occurs. */
  redactBytes(bytes: Buffer): Buffer;
}

/** JSON string escaping without the quotes: how a secret appears inside a serialized JSON string. */
function escapeJson(text: string): string {
  return JSON.stringify(text).slice(1, -1);
}

/**
 * The forms a secret can take in a vendor's message or a log line: as is (also within `Bearer <k>`,
 * `key=<k>`, a header value), URL-encoded (`encodeURIComponent`, with lower-case hex, form style), and each
 * of those JSON-escaped once and twice (a JSON body quoted in a message, that message in a log line).
 */
function listForms(secret: string): string[] {
  const encoded = encodeURIComponent(secret);
  const lowerHex = encoded.replace(/%[0-9A-F]{2}/g, (escape) => escape.toLowerCase());
  const plain = [secret, encoded, lowerHex, new URLSearchParams({ k: secret }).toString().slice(2)];
  const forms = new Set<string>();
  for (const form of plain) {
    const once = escapeJson(form);
    forms.add(form).add(once).add(escapeJson(once));
  }
  return [...forms];
}

/**
 * Secrets shorter than this are not searched for: they would match ordinary text (a dummy key such as
 * `EMPTY` or `x`, digits inside a log line's timestamp, breaking its JSON), and protect nothing anyway.
 */
export const MIN_SECRET_LENGTH = 8;

/**
 * Characters of the request log's lines, most frequent first (counted on the bench's lines): `indexOf`
 * finds a needle by scanning for its first character, then comparing, so a needle starting with one of the
 * first few stops every few characters.
 */
const FREQUENT_IN_LOG_LINES = '"et:o,nas10ip9cdurlh-65m24783g/bvkT.Mf}{yqISPOC';

/**
 * The shortest needle a form is searched by: a needle of one or a few characters is found wherever its first
 * character is (a hex digit of a request id), and each such find costs a call of `indexOf` and a compare of the
 * prefix, where a longer needle's false starts are passed over inside `indexOf`.
 */
const MIN_NEEDLE_LENGTH = 8;

/**
 * A form as searched for: from its least frequent character on (`needle`, at least {@link MIN_NEEDLE_LENGTH}
 * characters long), the characters before it (`prefix`) compared where found.
 */
interface Probe {
  form: string;
  needle: string;
  prefix: string;
}

function defineProbe(form: string): Probe {
  let skip = 0;
  let rank = -1;
  for (let i = 0; i <= form.length - MIN_NEEDLE_LENGTH; i++) {
    const frequency = FREQUENT_IN_LOG_LINES.indexOf(form[i]);
    const charRank = frequency === -1 ? FREQUENT_IN_LOG_LINES.length : frequency;
    if (charRank > rank) {
      rank = charRank;
      skip = i;
    }
    if (frequency === -1) break;
  }
  return { form, needle: form.slice(skip), prefix: form.slice(0, skip) };
}

/** Whether `probe`'s form occurs in `text`: `text.includes(form)`, searched from its rarest character. */
function occursIn(text: string, probe: Probe): boolean {
  const { needle, prefix } = probe;
  const skip = prefix.length;
  if (skip === 0) return text.includes(needle);
  for (let at = text.indexOf(needle, skip); at !== -1; at = text.indexOf(needle, at + 1)) {
    if (text.startsWith(prefix, at - skip)) return true;
  }
  return false;
}

/** A redactor for `secrets` (values shorter than {@link MIN_SECRET_LENGTH} are ignored): every form of each, longest first. */
export function createRedactor(secrets: Iterable<string | undefined>): Redactor {
  const unique = new Set<string>();
  for (const secret of secrets) {
    if (secret && secret.length >= MIN_SECRET_LENGTH) for (const form of listForms(secret)) unique.add(form);
  }
  const forms = [...unique].sort((a, b) => b.length - a.length);
  const byteForms = forms.map((form) => Buffer.from(form));
  const probes = forms.map(defineProbe);
  const redactText = (text: string): string => {
    let out = text;
    for (const probe of probes) if (occursIn(out, probe)) out = out.replaceAll(probe.form, REDACTED);
    return out;
  };
  return {
    forms,
    redactText,
    redactBytes(bytes) {
      for (const form of byteForms) {
        if (bytes.includes(form)) return Buffer.from(redactText(bytes.toString('utf8')));
      }
      return bytes;
    },
  };
}

/** The redactor of a gateway that holds no secret. */
export const NO_SECRETS: Redactor = createRedactor([]);
