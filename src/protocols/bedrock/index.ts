/**
 * Amazon Bedrock Converse as one protocol folder: the protocol adapter (usage, errors, request signing)
 * and the vendor side of chat translation (canonical <-> Converse, the binary event stream).
 * Bedrock has no client style of its own: every style reaches it through translation.
 */
import type { VendorAdapter } from '../../translate/adapter.ts';
import type { ProtocolAdapter, Usage } from '../types.ts';
import type { BedrockSimulator } from './simulator/index.ts';
import { bedrockConfigSchema } from './config-schema.ts';
import { createBedrockSigner } from './create-signer.ts';
import { decodeConverseError } from './decode-error.ts';
import { decodeConverseResponse } from './decode-response.ts';
import { encodeConverseRequest } from './encode-request.ts';
import { createEventStreamParser } from './event-stream-parser.ts';
import { readConverseUsage } from './read-converse.ts';
import { createConverseStreamDecoder } from './stream-decode.ts';

/** Usage of a Converse answer (`usage`) or of a stream's `metadata` event. */
function readUsage(json: any): Usage | undefined {
  const usage = json?.usage;
  return usage && typeof usage === 'object' ? readConverseUsage(usage) : undefined;
}

/** Canonical chat <-> Converse (`/model/{modelId}/converse` and `converse-stream`). */
export const bedrockChat: VendorAdapter = {
  encodeRequest: encodeConverseRequest,
  decodeResponse: decodeConverseResponse,
  createStreamDecoder: createConverseStreamDecoder,
  createStreamParser: createEventStreamParser,
  decodeError: decodeConverseError,
};

/** The Bedrock protocol: no passthrough, SigV4 or Bearer (Bedrock API key) auth. */
export const bedrockProtocol: ProtocolAdapter<BedrockSimulator> = {
  protocol: 'bedrock',
  passthrough: {},
  requestHeaders: ['content-type', 'accept'],
  readUsage,
  usageFields: ['usage'],
  readError: decodeConverseError,
  createSigner: createBedrockSigner,
  requestFacts: { ranges: { temperature: { min: 0, max: 1 }, topP: { min: 0, max: 1 } } },
  chat: bedrockChat,
  configSchema: bedrockConfigSchema,
  simulator: { key: 'sim-bedrock-secret-access-key', load: async () => (await import('./simulator/index.ts')).startBedrockSimulator },
};
