import type { IncomingHttpHeaders } from 'node:http';
import { once } from 'node:events';
import { finished } from 'node:stream/promises';
import busboy from 'busboy';
import { GatewayError } from '../errors.ts';

/** Finds the value of one form field in a multipart stream fed chunk by chunk; file contents are skipped. */
export interface FieldSniffer {
  /** Parses `chunk`; resolves with the field's value once it is known (undefined before). */
  write(chunk: Buffer): Promise<string | undefined>;
  /** Ends the form; rejects when it is malformed (truncated, bad part header). */
  end(): Promise<string | undefined>;
  /** Stops parsing. */
  destroy(): void;
}

/** Longest value read from any non-file field; other fields are truncated, the wanted one must fit. */
const FIELD_VALUE_LIMIT = 16 * 1024;

/**
 * Creates a busboy-backed sniffer for the form field `field` of a `multipart/form-data` request.
 * No 'file' listener is registered, so busboy skips file contents without buffering them.
 * Throws GatewayError 400 when the content type is not multipart/form-data with a boundary.
 */
export function createFieldSniffer(headers: IncomingHttpHeaders, field: string): FieldSniffer {
  const contentType = headers['content-type'];
  if (typeof contentType !== 'string' || contentType.slice(0, 19).toLowerCase() !== 'multipart/form-data') {
    throw new GatewayError(400, 'invalid_multipart', 'The request body must be multipart/form-data.');
  }
  let parser: busboy.Busboy;
  try {
    parser = busboy({ headers, limits: { fieldSize: FIELD_VALUE_LIMIT } });
  } catch (cause) {
    throw malformed(cause);
  }
  let value: string | undefined;
  let failure: GatewayError | undefined;
  parser.on('field', (name, fieldValue, info) => {
    if (name !== field || value !== undefined || failure !== undefined) return;
    if (info.valueTruncated) {
      failure = new GatewayError(400, 'invalid_multipart', `The multipart field \`${field}\` is too long.`, {
        param: field,
      });
      return;
    }
    value = fieldValue;
  });
  // Kept for the parser's whole life: a late parse error must never go unhandled.
  parser.on('error', (cause) => {
    failure ??= malformed(cause);
  });

  const check = (): string | undefined => {
    if (failure !== undefined) throw failure;
    return value;
  };

  return {
    async write(chunk) {
      const more = parser.write(chunk);
      if (check() !== undefined || more) return value;
      await once(parser, 'drain').catch(() => undefined);
      return check();
    },
    async end() {
      check();
      parser.end();
      await finished(parser).catch(() => undefined);
      return check();
    },
    destroy() {
      if (!parser.destroyed) parser.destroy();
    },
  };
}

function malformed(cause: unknown): GatewayError {
  const detail = cause instanceof Error ? `: ${cause.message}` : '';
  return new GatewayError(400, 'invalid_multipart', `The multipart body is malformed${detail}.`, { cause });
}
