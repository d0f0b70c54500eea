import busboy from 'busboy';

/** One request a simulated vendor received (the fields the form reader needs). */
interface ReceivedRequest {
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** A form as the vendor got it: its fields and files in order. */
export interface VendorForm {
  fields: [string, string][];
  files: { field: string; filename: string; mimeType: string; data: Buffer }[];
}

/** Parses the multipart form a simulated vendor received, independently of the gateway's code. */
export function readVendorForm(request: ReceivedRequest): Promise<VendorForm> {
  const form: VendorForm = { fields: [], files: [] };
  return new Promise((resolve, reject) => {
    const parser = busboy({ headers: { 'content-type': String(request.headers['content-type']) } });
    parser.on('field', (name, value) => form.fields.push([name, value]));
    parser.on('file', (field, stream, info) => {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => form.files.push({ field, filename: info.filename ?? '', mimeType: info.mimeType, data: Buffer.concat(chunks) }));
    });
    parser.on('close', () => resolve(form));
    parser.on('error', reject);
    parser.end(request.body);
  });
}
