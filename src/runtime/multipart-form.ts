import { randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import busboy from 'busboy';
import { GatewayError, toGatewayError } from '../errors.ts';

/** One part of a parsed form, in the order the client sent it. */
type FormPart = { name: string; value: string } | { name: string; filename: string; mimeType: string; data: Buffer };

/** Parsed forms by upload stream: an upload can be read once, a retried attempt reuses the parse. */
const parsed = new WeakMap<Readable, Promise<FormPart[]>>();

/**
 * Re-encodes a small `multipart/form-data` upload (already bounded by the body limit) with every field
 * named `field` set to `value` (the vendor's name for the model), other fields and file bytes unchanged.
 * Throws GatewayError 400 (malformed form) or the upload's own error (413, 499, 408).
 */
export async function rewriteFormField(
  upload: Readable,
  contentType: string,
  field: string,
  value: string,
): Promise<{ body: Buffer; contentType: string }> {
  let parts = parsed.get(upload);
  if (!parts) parsed.set(upload, (parts = readForm(upload, contentType)));
  const boundary = `----gateway${randomBytes(12).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const part of await parts) {
    let head = `--${boundary}\r\nContent-Disposition: form-data; name="${escapeName(part.name)}"`;
    if ('data' in part) {
      head += `; filename="${escapeName(part.filename)}"\r\nContent-Type: ${part.mimeType.replace(/[\r\n]/g, '')}`;
      chunks.push(Buffer.from(`${head}\r\n\r\n`, 'latin1'), part.data, Buffer.from('\r\n'));
    } else {
      const content = part.name === field ? Buffer.from(value) : Buffer.from(part.value, 'latin1');
      chunks.push(Buffer.from(`${head}\r\n\r\n`, 'latin1'), content, Buffer.from('\r\n'));
    }
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

/** Escapes a name as browsers' FormData does: quotes and line breaks percent-encoded. */
function escapeName(name: string): string {
  return name.replace(/"/g, '%22').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

/**
 * Parses the form in order. Names, filenames and values are read as latin1 (one character per byte) and
 * written back so: the vendor gets the client's bytes whatever their encoding.
 */
function readForm(upload: Readable, contentType: string): Promise<FormPart[]> {
  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({ headers: { 'content-type': contentType }, limits: { fieldSize: Infinity }, defCharset: 'latin1', defParamCharset: 'latin1' });
    } catch (cause) {
      return reject(malformed(cause));
    }
    const parts: FormPart[] = [];
    parser.on('field', (name, fieldValue) => parts.push({ name, value: fieldValue }));
    parser.on('file', (name, stream, info) => {
      const part = { name, filename: info.filename ?? '', mimeType: info.mimeType, data: Buffer.alloc(0) };
      parts.push(part);
      const data: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => data.push(chunk));
      stream.on('end', () => (part.data = Buffer.concat(data)));
    });
    parser.on('close', () => resolve(parts));
    parser.on('error', (cause) => reject(malformed(cause)));
    upload.on('error', (error) => {
      parser.destroy();
      reject(toGatewayError(error));
    });
    upload.pipe(parser);
  });
}

function malformed(cause: unknown): GatewayError {
  return new GatewayError(400, 'invalid_multipart', 'The multipart/form-data body is malformed.', { cause });
}
