import type { ConfigSchemaFragment } from '../types.ts';

/**
 * Bedrock's part of gateway.yaml: the signing region and SigV4 auth from environment variables on vendor
 * entries, and the reasoning request shape a model takes (`request.reasoning`, write-thinking.ts).
 */
export const bedrockConfigSchema: ConfigSchemaFragment = {
  requestFactProperties: {
    reasoning: {
      description: 'bedrock: the reasoning request the model takes (claude-thinking: Claude\'s additionalModelRequestFields.thinking; nova-reasoning: Nova 2\'s additionalModelRequestFields.reasoningConfig with maxReasoningEffort; none: no reasoning field). Default: claude-thinking when the upstream id or ARN names a Claude model, else none; declare it for application inference profiles, whose ARN hides the model.',
      enum: ['claude-thinking', 'nova-reasoning', 'none'],
    },
  },
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
