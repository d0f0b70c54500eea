import * as zlib from 'node:zlib';
import type { Transform } from 'node:stream';
import { GatewayError } from '../errors.ts';

/** Where an {@link AnswerDecoder} hands what it decoded. */
export interface DecodedSink {
  /** A decoded chunk; false asks for no more until `resume()`. */
  onDecoded(chunk: Buffer): boolean;
  /** The coded body is over and all of it was handed on. */
  onDecodedEnd(): void;
  /** The bytes are not what their coding says (or the body was cut inside it). */
  onDecodeError(error: GatewayError): void;
  /** The decoder takes coded bytes again after `write` returned false. */
  onDecoderDrain(): void;
}

/** Node's zstd decoder: Node 22.15 and later have it (the Node 20 types do not name it). */
const createZstdDecompress = (zlib as { createZstdDecompress?: () => Transform }).createZstdDecompress;

/** Node's decoders by content-coding name (RFC 9110 8.4.1; zstd where this Node has it). */
const DECODERS: Record<string, () => Transform> = {
  gzip: zlib.createGunzip,
  'x-gzip': zlib.createGunzip,
  deflate: zlib.createInflate,
  br: zlib.createBrotliDecompress,
  ...(createZstdDecompress === undefined ? {} : { zstd: createZstdDecompress }),
};

/** Codings applied one over another that are decoded at most (a chain of more is refused, as a decompression bomb). */
const MAX_CODINGS = 3;

/**
 * Node's decoders for a `content-encoding` (a header given twice counts as one list), in the order to pipe
 * them (the last coding applied is decoded first): undefined for none or `identity`; a 502
 * `upstream_invalid_response` naming `vendorName` for a coding the gateway cannot decode or more than three.
 */
export function createDecoderChain(vendorName: string, coding: string | string[] | undefined): Transform[] | GatewayError | undefined {
  if (coding === undefined) return undefined;
  const names = (Array.isArray(coding) ? coding.join(',') : coding)
    .split(',')
    .map((name) => name.trim().toLowerCase())
    .filter((name) => name !== '' && name !== 'identity');
  if (names.length === 0) return undefined;
  const unknown = names.find((name) => !Object.hasOwn(DECODERS, name));
  if (unknown !== undefined || names.length > MAX_CODINGS) {
    const what = unknown === undefined ? `${names.length} codings over one another` : 'a content coding';
    return new GatewayError(502, 'upstream_invalid_response', `Vendor "${vendorName}" answered in ${what} the gateway cannot decode.`);
  }
  return names.reverse().map((name) => DECODERS[name]());
}

/**
 * The decoder of a vendor answer's `content-encoding` ({@link createDecoderChain}), handing what it decodes to
 * `sink`. A vendor may code its answer though the gateway sent no `accept-encoding` (RFC 9110 12.5.3), so
 * every vendor call's answer is read through this.
 */
export function openAnswerDecoder(vendorName: string, coding: string | string[] | undefined, sink: DecodedSink): AnswerDecoder | GatewayError | undefined {
  const chain = createDecoderChain(vendorName, coding);
  return chain === undefined || chain instanceof GatewayError ? chain : new AnswerDecoder(vendorName, chain, sink);
}

/** A chain of Node decoders between a vendor call's coded chunks and the answer's reader, with backpressure both ways. */
export class AnswerDecoder {
  private readonly first: Transform;
  private readonly last: Transform;
  private failed = false;
  private written = false;

  constructor(
    private readonly vendorName: string,
    private readonly chain: Transform[],
    private readonly sink: DecodedSink,
  ) {
    this.first = chain[0];
    this.last = chain[chain.length - 1];
    for (let at = 0; at < chain.length; at++) {
      chain[at].on('error', (error) => this.fail(error));
      if (at > 0) chain[at - 1].pipe(chain[at]);
    }
    this.first.on('drain', () => sink.onDecoderDrain());
    this.last.on('data', (chunk: Buffer) => {
      if (!this.failed && !sink.onDecoded(chunk)) this.last.pause();
    });
    this.last.on('end', () => {
      if (!this.failed) sink.onDecodedEnd();
    });
  }

  /** Takes a coded chunk; false when the decoder holds enough (the vendor is then paused until `onDecoderDrain`). */
  write(chunk: Buffer): boolean {
    if (this.failed) return false;
    if (chunk.length > 0) this.written = true;
    return this.first.write(chunk);
  }

  /** The coded body is over: what is left is decoded and handed on, then the end (an empty body is empty, not broken). */
  end(): void {
    if (this.failed) return;
    if (this.written) return void this.first.end();
    this.destroy();
    this.sink.onDecodedEnd();
  }

  /** Hands decoded chunks on again after the sink asked for no more. */
  resume(): void {
    if (!this.failed) this.last.resume();
  }

  /** Stops decoding: nothing more is handed on. */
  destroy(): void {
    this.failed = true;
    for (const stream of this.chain) stream.destroy();
  }

  private fail(cause: Error): void {
    if (this.failed) return;
    this.destroy();
    this.sink.onDecodeError(new GatewayError(502, 'upstream_invalid_response', `Vendor "${this.vendorName}" answered with bytes its content coding does not decode.`, { cause }));
  }
}
