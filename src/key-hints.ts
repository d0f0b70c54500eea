import type { Style } from './config/types.ts';

/**
 * Where each caller style's official SDK sends its API key, quoted by the 401 of a request that sent
 * none (a table keyed by style, like the per-style error tables of `errors.ts`).
 */
const KEY_HEADERS: Record<Style, string> = {
  openai: '"Authorization: Bearer <key>"',
  anthropic: '"x-api-key: <key>" or "Authorization: Bearer <key>"',
  gemini: '"x-goog-api-key: <key>", the "?key=<key>" query parameter, or "Authorization: Bearer <key>"',
};

/** The message of the 401 for a request of `style` that presented no API key. */
export function getMissingKeyMessage(style: Style): string {
  return `No API key provided. Send it as ${KEY_HEADERS[style]}.`;
}
