/**
 * The request bodies the scenarios send, written once into the bench's temporary directory: a chat
 * request, the same streamed, the same streamed to the translated model, the same as an Anthropic messages
 * stream (sent straight to the vendor), the slow-stream request, a 5 MB multipart transcription upload and
 * a shape-A image generation.
 */
import { randomBytes } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { CHAT_MODEL, IMAGES_MODEL, SLOW_MODEL, TRANSLATED_MODEL, UPLOAD_MODEL } from './config.ts';

/** Body files and the content type each is sent with. */
export interface BenchBodies {
  chat: string;
  stream: string;
  /** The streamed chat request to the Anthropic-protocol model (same messages as `stream`). */
  translatedStream: string;
  /** The same conversation as an Anthropic messages stream request (for the vendor directly). */
  messagesStream: string;
  slowStream: string;
  /** A shape-A image generation (`{model, prompt, size}`). */
  images: string;
  upload: string;
  uploadContentType: string;
  uploadBytes: number;
}

const BOUNDARY = '----bench-boundary-7MA4YWxkTrZu0gW';

/** A realistic small chat request (system + user message, a couple of options). */
export function defineChatBody(model: string, stream: boolean): string {
  return JSON.stringify({
    model,
    messages: [
      { role: 'system', content: 'You are a helpful assistant. Answer briefly.' },
      { role: 'user', content: 'Write one sentence about the sea at night, with the moon on the water.' },
    ],
    temperature: 0.2,
    max_tokens: 64,
    ...(stream ? { stream: true } : {}),
  });
}

/** The chat body's conversation as an Anthropic messages request, streamed. */
export function defineMessagesBody(model: string): string {
  const chat = JSON.parse(defineChatBody(model, true));
  return JSON.stringify({ model, system: chat.messages[0].content, messages: [chat.messages[1]], max_tokens: chat.max_tokens, temperature: chat.temperature, stream: true });
}

/** A shape-A image generation request: model, prompt and a WxH size, nothing else. */
export function defineImagesBody(model: string): string {
  return JSON.stringify({ model, prompt: 'A lighthouse on a cliff at dusk, watercolor.', size: '1024x1024' });
}

/**
 * A multipart transcription upload: the model field first (so a proxy can route from the first chunk),
 * then a file of `size` printable bytes (printable so autocannon, which reads body files as UTF-8, sends
 * the same bytes as wrk).
 */
export function defineUploadBody(model: string, size: number): Buffer {
  const file = Buffer.from(randomBytes(Math.ceil((size * 3) / 4)).toString('base64').slice(0, size));
  return Buffer.concat([
    Buffer.from(
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="model"\r\n\r\n${model}\r\n` +
        `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="speech.mp3"\r\nContent-Type: audio/mpeg\r\n\r\n`,
    ),
    file,
    Buffer.from(`\r\n--${BOUNDARY}\r\nContent-Disposition: form-data; name="response_format"\r\n\r\njson\r\n--${BOUNDARY}--\r\n`),
  ]);
}

/** Writes every body file into `dir`; the upload file is `uploadBytes` long. */
export async function writeBodies(dir: string, uploadBytes = 5 * 1024 * 1024): Promise<BenchBodies> {
  const files = {
    chat: join(dir, 'chat.json'),
    stream: join(dir, 'stream.json'),
    translatedStream: join(dir, 'translated-stream.json'),
    messagesStream: join(dir, 'messages-stream.json'),
    slowStream: join(dir, 'slow-stream.json'),
    upload: join(dir, 'upload.multipart'),
    images: join(dir, 'images.json'),
  };
  await writeFile(files.chat, defineChatBody(CHAT_MODEL, false));
  await writeFile(files.stream, defineChatBody(CHAT_MODEL, true));
  await writeFile(files.translatedStream, defineChatBody(TRANSLATED_MODEL, true));
  await writeFile(files.messagesStream, defineMessagesBody(TRANSLATED_MODEL));
  await writeFile(files.slowStream, defineChatBody(SLOW_MODEL, true));
  await writeFile(files.images, defineImagesBody(IMAGES_MODEL));
  await writeFile(files.upload, defineUploadBody(UPLOAD_MODEL, uploadBytes));
  return { ...files, uploadContentType: `multipart/form-data; boundary=${BOUNDARY}`, uploadBytes };
}
