import type { ConfigSchemaFragment } from '../types.ts';

/** Bedrock's part of gateway.yaml's vendor entries: the signing region and SigV4 auth from environment variables. */
export const bedrockConfigSchema: ConfigSchemaFragment = {
  vendorProperties: {
    region: { type: 'string', pattern: '^[a-z0-9-]+$', description: "The vendor's region (bedrock: the SigV4 signing region, e.g. us-east-1)." },
  },
  authKinds: {
    sigv4: {
      type: 'object',
      additionalProperties: false,
      required: ['access_key_id', 'secret_access_key'],
      properties: {
        access_key_id: { $ref: '#/definitions/envRef' },
        secret_access_key: { $ref: '#/definitions/envRef' },
        session_token: { $ref: '#/definitions/envRef' },
      },
    },
  },
};
