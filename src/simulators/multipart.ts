import busboy from 'busboy';
import { Readable } from 'node:stream';
import type { SimRequest } from './sim-server.ts';

/** A parsed multipart/form-data body. */
export interface MultipartBody {
  fields: Record<string, string>;
  files: { field: string; filename: string; mimeType: string; data: Buffer }[];
}

/** Parses a multipart/form-data request body with busboy; rejects other content types. */
export function readMultipart(req: SimRequest): Promise<MultipartBody> {
  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({ headers: req.headers });
    } catch (error) {
      return reject(error);
    }
    const out: MultipartBody = { fields: {}, files: [] };
    parser.on('field', (name, value) => (out.fields[name] = value));
    parser.on('file', (field, stream, info) => {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => out.files.push({ field, filename: info.filename ?? '', mimeType: info.mimeType, data: Buffer.concat(chunks) }));
    });
    parser.on('close', () => resolve(out));
    parser.on('error', reject);
    Readable.from([req.body]).pipe(parser);
  });
}
