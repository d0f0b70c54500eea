/**
 * Deterministic content shared by the simulated vendors: reply text, token counts, stream pieces,
 * tool-call arguments and embeddings. Everything here is a pure function of the request.
 *
 * Token counting rule (every simulator): a "token" is a whitespace-separated word; an empty text counts 0.
 */

const WORDS = /\s*\S+/g;

/** The reply a simulated chat model gives to the last user text. */
export function createEcho(text: string): string {
  return `Echo: ${text}`;
}

/** Counts whitespace-separated words (the simulators' token count). */
export function countTokens(text: string): number {
  let count = 0;
  let inWord = false;
  for (let i = 0; i < text.length; i++) {
    const space = text.charCodeAt(i) <= 32;
    if (!space && !inWord) count++;
    inWord = !space;
  }
  return count;
}

/**
 * Cuts a reply into stream pieces. Without `n`: one piece per word (a word keeps its leading space).
 * With `n`: exactly n pieces of near-equal length; a reply shorter than n characters is padded with '.'.
 */
export function splitPieces(text: string, n?: number): string[] {
  if (n === undefined || n < 1) {
    const pieces = text.match(WORDS) ?? [];
    if (pieces.length === 0) return [text];
    const trailing = text.length - pieces.join('').length;
    if (trailing > 0) pieces[pieces.length - 1] += text.slice(text.length - trailing);
    return pieces;
  }
  const padded = text.length >= n ? text : text + '.'.repeat(n - text.length);
  const pieces: string[] = [];
  for (let i = 0; i < n; i++) {
    pieces.push(padded.slice(Math.floor((i * padded.length) / n), Math.floor(((i + 1) * padded.length) / n)));
  }
  return pieces;
}

/** Cuts a string (e.g. tool-call JSON arguments) into fragments of `size` characters. */
export function splitFragments(text: string, size = 10): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out.length > 0 ? out : [''];
}

/**
 * Arguments a simulated model passes to a tool, derived from its JSON/OpenAPI schema: each required
 * property (all properties when none are required) gets a value by type: string -> first enum value
 * or `text`, number/integer -> 1, boolean -> true, array -> [], object -> {}.
 */
export function createToolArgs(schema: unknown, text: string): Record<string, unknown> {
  const args: Record<string, unknown> = {};
  if (!isObject(schema) || !isObject(schema.properties)) return args;
  const props = schema.properties;
  const names = Array.isArray(schema.required) && schema.required.length > 0 ? schema.required : Object.keys(props);
  for (const name of names) {
    if (typeof name !== 'string') continue;
    const prop = isObject(props[name]) ? props[name] : {};
    const type = toText(Array.isArray(prop.type) ? prop.type[0] : prop.type ?? 'string').toLowerCase();
    if (Array.isArray(prop.enum) && prop.enum.length > 0) args[name] = prop.enum[0];
    else if (type === 'number' || type === 'integer') args[name] = 1;
    else if (type === 'boolean') args[name] = true;
    else if (type === 'array') args[name] = [];
    else if (type === 'object') args[name] = {};
    else args[name] = text;
  }
  return args;
}

/** A deterministic unit-scale embedding of `text` (float32 values, so JSON and base64 agree). */
export function createEmbedding(text: string, dimensions: number): Float32Array {
  let seed = 2166136261;
  for (let i = 0; i < text.length; i++) seed = Math.imul(seed ^ text.charCodeAt(i), 16777619) >>> 0;
  const out = new Float32Array(dimensions);
  for (let i = 0; i < dimensions; i++) out[i] = Math.sin(seed % 9973 + i * 0.7) * 0.05;
  return out;
}

/** Little-endian float32 bytes of an embedding, base64 (OpenAI `encoding_format: "base64"`). */
export function encodeEmbeddingBase64(values: Float32Array): string {
  const bytes = Buffer.alloc(values.length * 4);
  for (let i = 0; i < values.length; i++) bytes.writeFloatLE(values[i], i * 4);
  return bytes.toString('base64');
}

/** A per-simulator counter for deterministic ids (`prefix` + zero-padded sequence). */
export function createIdMaker(prefix: string): () => string {
  let seq = 0;
  return () => `${prefix}${String(++seq).padStart(6, '0')}`;
}

/** Current Unix time in seconds. */
export function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}

/**
 * `String(value)`, for any value a JSON body holds: an object whose own `toString` is not a function
 * (`{"toString": ""}`) makes `String` throw, and is written as `String` writes a plain object.
 */
export function toText(value: unknown): string {
  try {
    return String(value);
  } catch {
    return Object.prototype.toString.call(value);
  }
}

/** Narrows to a plain object. */
export function isObject(value: unknown): value is Record<string, any> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The text of a message content: a string, or the `text` of each part joined by a space. */
export function readText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  let out = '';
  for (const part of content) {
    if (isObject(part) && typeof part.text === 'string') out = out === '' ? part.text : `${out} ${part.text}`;
  }
  return out;
}

/** Cuts a reply to at most `max` words (a model hitting its output-token limit); undefined when it fits. */
export function truncateWords(text: string, max: unknown): string | undefined {
  if (typeof max !== 'number' || max < 0) return undefined;
  const pieces = splitPieces(text);
  return pieces.length > max ? pieces.slice(0, max).join('') : undefined;
}
