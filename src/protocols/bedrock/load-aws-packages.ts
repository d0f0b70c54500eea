import { createRequire } from 'node:module';

type AwsPackages = typeof import('@smithy/signature-v4') &
  typeof import('@aws-crypto/sha256-js') &
  typeof import('@smithy/eventstream-codec') &
  typeof import('@smithy/util-utf8');

const require = createRequire(import.meta.url);
let loaded: AwsPackages | undefined;

/**
 * The AWS packages Bedrock calls need (SigV4 signing, the binary event stream), loaded when a Bedrock
 * vendor first signs or streams: every gateway loads the protocol registry, and these packages held
 * about 10 MB of a gateway's memory that has no Bedrock vendor. Synchronous (CommonJS `require`), so
 * the signer and the stream parser keep their synchronous shape.
 */
export function loadAwsPackages(): AwsPackages {
  loaded ??= {
    ...(require('@smithy/signature-v4') as typeof import('@smithy/signature-v4')),
    ...(require('@aws-crypto/sha256-js') as typeof import('@aws-crypto/sha256-js')),
    ...(require('@smithy/eventstream-codec') as typeof import('@smithy/eventstream-codec')),
    ...(require('@smithy/util-utf8') as typeof import('@smithy/util-utf8')),
  };
  return loaded;
}
