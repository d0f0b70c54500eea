/** How the simulated Bedrock checks a caller: SigV4 recomputed with the same secret, or a Bedrock API key. */
import { createHash, timingSafeEqual } from 'node:crypto';
import { Sha256 } from '@aws-crypto/sha256-js';
import { SignatureV4 } from '@smithy/signature-v4';
import type { SimRequest } from '../../../simulators/sim-server.ts';

/** The credentials the simulator accepts. */
export interface BedrockSimCredentials {
  accessKeyId: string;
  secretAccessKey: string;
  /** When set, signed requests must carry it as `x-amz-security-token`. */
  sessionToken?: string;
  /** The Bedrock API key accepted as `Authorization: Bearer`. */
  apiKey: string;
}

/** Why a request was refused: the Bedrock exception and its message (403). */
export interface AuthRefusal {
  type: string;
  message: string;
}

const AUTH_HEADER = /^AWS4-HMAC-SHA256 Credential=([^/,\s]+)\/(\d{8})\/([^/]+)\/([^/]+)\/aws4_request,\s*SignedHeaders=([a-z0-9;-]+),\s*Signature=([0-9a-f]{64})$/;
const INVALID_TOKEN = 'The security token included in the request is invalid.';
const BAD_SIGNATURE = 'The request signature we calculated does not match the signature you provided. Check your AWS Secret Access Key and signing method. Consult the service documentation for details.';
const MAX_SKEW_MS = 5 * 60 * 1000;

/**
 * Checks a request as the service does: a Bearer API key is compared; a SigV4 `Authorization` names a
 * known key id, a date within five minutes, the `bedrock` service, signs `host` and `x-amz-date`, carries
 * the body's real SHA-256, and its signature is recomputed over the request as received (path as sent,
 * the signed headers only) with the same secret by `@smithy/signature-v4`. Undefined when it passes.
 */
export async function verifyBedrockAuth(req: SimRequest, creds: BedrockSimCredentials): Promise<AuthRefusal | undefined> {
  const authorization = String(req.headers.authorization ?? '');
  if (authorization.startsWith('Bearer ')) {
    return equalText(authorization.slice(7), creds.apiKey) ? undefined : { type: 'UnrecognizedClientException', message: INVALID_TOKEN };
  }
  const match = AUTH_HEADER.exec(authorization);
  if (!match) return { type: 'MissingAuthenticationTokenException', message: 'Missing Authentication Token' };
  const [, keyId, day, region, service, signedHeaders, signature] = match;
  if (keyId !== creds.accessKeyId) return { type: 'UnrecognizedClientException', message: INVALID_TOKEN };
  const token = req.headers['x-amz-security-token'];
  if ((creds.sessionToken ?? undefined) !== (token ?? undefined)) return { type: 'UnrecognizedClientException', message: INVALID_TOKEN };
  const names = signedHeaders.split(';');
  const amzDate = String(req.headers['x-amz-date'] ?? '');
  const signingDate = parseAmzDate(amzDate);
  if (service !== 'bedrock' || !names.includes('host') || !names.includes('x-amz-date') || !signingDate || !amzDate.startsWith(day)) {
    return { type: 'InvalidSignatureException', message: BAD_SIGNATURE };
  }
  if (Math.abs(Date.now() - signingDate.getTime()) > MAX_SKEW_MS) return { type: 'InvalidSignatureException', message: 'Signature expired.' };
  const bodyHash = req.headers['x-amz-content-sha256'];
  if (bodyHash !== undefined && bodyHash !== createHash('sha256').update(req.body).digest('hex')) {
    return { type: 'InvalidSignatureException', message: BAD_SIGNATURE };
  }
  const expected = await computeSignature(req, creds, { region, names, signingDate, token: typeof token === 'string' ? token : undefined });
  return expected !== undefined && equalText(expected, signature) ? undefined : { type: 'InvalidSignatureException', message: BAD_SIGNATURE };
}

async function computeSignature(
  req: SimRequest,
  creds: BedrockSimCredentials,
  o: { region: string; names: string[]; signingDate: Date; token?: string },
): Promise<string | undefined> {
  const headers: Record<string, string> = {};
  for (const name of o.names) {
    const value = req.headers[name];
    if (value === undefined) return undefined;
    headers[name] = Array.isArray(value) ? value.join(',') : value;
  }
  const query: Record<string, string> = {};
  for (const [name, value] of new URLSearchParams(req.search)) query[name] = value;
  const signer = new SignatureV4({
    service: 'bedrock',
    region: o.region,
    credentials: { accessKeyId: creds.accessKeyId, secretAccessKey: creds.secretAccessKey, ...(o.token ? { sessionToken: o.token } : {}) },
    sha256: Sha256,
    uriEscapePath: true,
    applyChecksum: false,
  });
  const host = headers.host ?? '';
  const signed = await signer.sign(
    { method: req.method, protocol: 'http:', hostname: host, path: req.path, query, headers, body: req.body },
    { signingDate: o.signingDate, unsignableHeaders: new Set(), signableHeaders: new Set(o.names) },
  );
  return /Signature=([0-9a-f]{64})/.exec(String(signed.headers.authorization ?? ''))?.[1];
}

function parseAmzDate(text: string): Date | undefined {
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(text);
  return m ? new Date(Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4], +m[5], +m[6])) : undefined;
}

function equalText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
