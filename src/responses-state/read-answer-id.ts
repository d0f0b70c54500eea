/** A JSON answer whose first key is its id, as OpenAI writes a response (`{"id": "resp_..."`). */
const ID_FIRST = /^\s*\{\s*"id"\s*:\s*"([^"\\]{1,256})"/;

/** Whether `id` can be noted: a non-empty string of at most 256 characters (the head's bound too). */
function isNotable(id: unknown): id is string {
  return typeof id === 'string' && id !== '' && id.length <= 256;
}

/** Bytes of a head enough to hold `{"id": "<id>"` with spaces. */
export const ID_HEAD_BYTES = 320;

/**
 * The response id at the head of a JSON answer (its first key, read without parsing the body), or
 * undefined when the head does not start with it.
 */
export function readIdHead(head: Buffer): string | undefined {
  return ID_FIRST.exec(head.subarray(0, ID_HEAD_BYTES).toString('utf8'))?.[1];
}

/** The top-level `id` of a whole JSON answer whose id is not its first key (one parse), or undefined. */
export function readIdParsed(body: Buffer): string | undefined {
  try {
    const id = JSON.parse(body.toString('utf8'))?.id;
    return isNotable(id) ? id : undefined;
  } catch {
    return undefined;
  }
}

const EVENT_END = /\r?\n\r?\n/;

/**
 * The response id a stream's first event carries (`response.created`: `response.id`): undefined while
 * the first event is incomplete, null when it carries none.
 */
export function readFirstEventId(head: Buffer): string | null | undefined {
  const text = head.toString('utf8');
  const end = EVENT_END.exec(text);
  if (!end) return undefined;
  const data = text
    .slice(0, end.index)
    .split(/\r?\n/)
    .filter((line) => line.startsWith('data:'))
    .map((line) => line.slice(5).trimStart())
    .join('\n');
  try {
    const id = JSON.parse(data)?.response?.id;
    return isNotable(id) ? id : null;
  } catch {
    return null;
  }
}
