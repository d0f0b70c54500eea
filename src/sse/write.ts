/** Server-Sent Events writing: the one place SSE frames are assembled. */

/** Line ending of a frame: LF for most vendors, CRLF for the generate-content style. */
export type SseLineEnd = '\n' | '\r\n';

const LINE_BREAK = /\r\n|\r|\n/;

/**
 * Formats one SSE event. `data` is written as one `data:` line per line of text (JSON never has raw
 * newlines, so JSON data is one line); `event` adds an `event:` line before it.
 */
export function formatSseEvent(data: string, event?: string, lineEnd: SseLineEnd = '\n'): string {
  const head = event === undefined ? '' : `event: ${event}${lineEnd}`;
  const body = data.includes('\n') || data.includes('\r')
    ? data.split(LINE_BREAK).map((line) => `data: ${line}`).join(lineEnd)
    : `data: ${data}`;
  return `${head}${body}${lineEnd}${lineEnd}`;
}

/** Formats one SSE event whose data is `value` as JSON. */
export function formatSseJson(value: unknown, event?: string, lineEnd: SseLineEnd = '\n'): string {
  return formatSseEvent(JSON.stringify(value), event, lineEnd);
}
