/** How many characters of a client-supplied string an error message quotes at most. */
export const MAX_QUOTED_CHARS = 256;

/**
 * A client-supplied string (a model name, a field name or path) shortened for quoting in an error
 * message: at most `max` characters, then an ellipsis and how many more there were. A client that sends
 * a 5 MB model name gets a short 404, not its 5 MB back.
 */
export function clipClientText(text: string, max = MAX_QUOTED_CHARS): string {
  if (text.length <= max) return text;
  return `${text.slice(0, max)}… (${text.length - max} more characters)`;
}
