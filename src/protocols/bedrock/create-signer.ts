/** Bedrock request auth: AWS Signature V4 over each call, with credentials read at start or reload. */
import type { SignatureV4 } from '@smithy/signature-v4';
import type { VendorEntry } from '../../config/types.ts';
import type { SignableRequest, VendorSigner } from '../types.ts';
import { loadAwsPackages } from './load-aws-packages.ts';

/** The signing name of the Bedrock runtime API. */
export const BEDROCK_SIGNING_SERVICE = 'bedrock';

/** The region of a vendor: its `region`, else the one in a `bedrock-runtime.<region>.amazonaws.com` base URL. */
export function getVendorRegion(vendor: VendorEntry): string {
  return vendor.region ?? /bedrock-runtime(?:-fips)?\.([a-z0-9-]+)\.amazonaws\.com/.exec(vendor.baseUrl)?.[1] ?? 'us-east-1';
}

/**
 * The SigV4 signer of a `sigv4` vendor (undefined when its key id or secret is unset), made with
 * `@smithy/signature-v4` exactly as the AWS SDK makes it for Bedrock: the path is URI-escaped once more
 * for the canonical request (a model id's `%3A` signs as `%253A`), the body is hashed into
 * `x-amz-content-sha256`, and the session token, when set, travels as `x-amz-security-token`.
 */
export function createBedrockSigner(vendor: VendorEntry, env: NodeJS.ProcessEnv): VendorSigner | undefined {
  const { auth } = vendor;
  if (auth.kind !== 'signed') return undefined;
  const accessKeyId = env[auth.idEnv];
  const secretAccessKey = env[auth.env];
  const sessionToken = auth.tokenEnv ? env[auth.tokenEnv] : undefined;
  if (!accessKeyId || !secretAccessKey) return undefined;
  const { SignatureV4, Sha256 } = loadAwsPackages();
  const signer = new SignatureV4({
    service: BEDROCK_SIGNING_SERVICE,
    region: getVendorRegion(vendor),
    credentials: { accessKeyId, secretAccessKey, ...(sessionToken ? { sessionToken } : {}) },
    sha256: Sha256,
    uriEscapePath: true,
    applyChecksum: true,
  });
  return (request) => signRequest(signer, request);
}

async function signRequest(signer: SignatureV4, request: SignableRequest): Promise<Record<string, string>> {
  const url = new URL(request.path, request.origin);
  const query: Record<string, string> = {};
  for (const [name, value] of url.searchParams) query[name] = value;
  const headers: Record<string, string> = { host: url.host };
  for (const name of ['content-type', 'accept']) if (request.headers[name]) headers[name] = request.headers[name];
  const signed = await signer.sign({
    method: request.method,
    protocol: url.protocol,
    hostname: url.hostname,
    port: url.port ? Number(url.port) : undefined,
    // The path exactly as it goes on the wire (already percent-encoded): the signer encodes it again.
    path: request.path.split('?')[0],
    query,
    headers,
    body: request.body,
  });
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(signed.headers)) if (name !== 'host') out[name.toLowerCase()] = value;
  return out;
}
