import { GatewayError } from '../errors.ts';
import { getProtocolAdapter } from '../protocols/index.ts';
import type { OpCall } from '../runtime/types.ts';
import { readAnswerJson } from '../runtime/read-answer-json.ts';
import { readErrorBody, toVendorError } from '../runtime/vendor-error.ts';
import { isJsonObject, type JsonObject } from '../transforms/path.ts';
import type { ImageBackend, ImageBatch, ImageDatum } from './types.ts';

/** Reads the spec's response (`{created, data:[{url|b64_json, revised_prompt}]}`) from a vendor answer. */
export function readImagesResponse(json: unknown, vendorName: string): Omit<ImageBatch, 'usage'> {
  if (!isJsonObject(json) || !Array.isArray(json.data)) {
    throw new GatewayError(502, 'upstream_invalid_response', `Vendor "${vendorName}" answered an image request without \`data\`.`);
  }
  const { created, data, usage, ...extras } = json;
  const images: ImageDatum[] = data.filter(isJsonObject).map((item) => {
    const datum: ImageDatum = {};
    if (typeof item.url === 'string') datum.url = item.url;
    if (typeof item.b64_json === 'string') datum.b64_json = item.b64_json;
    if (typeof item.revised_prompt === 'string') datum.revised_prompt = item.revised_prompt;
    return datum;
  });
  return { created: typeof created === 'number' ? created : Math.floor(Date.now() / 1000), data: images, extras, rawUsage: usage };
}

/**
 * Vendors that take shape A natively (`POST /images/generations` of the OpenAI protocol, and every
 * vendor compatible with it): one call, the answer read as it is. They return base64 themselves.
 */
export const nativeImageBackend: ImageBackend = {
  urlOnly: false,
  async generate(call: OpCall, body: JsonObject): Promise<ImageBatch> {
    const response = await call.callVendor({
      method: 'POST',
      path: '/images/generations',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (response.status >= 400) {
      const { json } = await readErrorBody(response);
      throw toVendorError(call.vendor, response.status, json);
    }
    const json = await readAnswerJson(call.vendor, response);
    const batch: ImageBatch = readImagesResponse(json, call.vendor.config.name);
    if (batch.rawUsage !== undefined) batch.usage = getProtocolAdapter(call.vendor.config.protocol).readUsage(json);
    return batch;
  },
};
