/**
 * `gateway check` rules of the request facts a protocol folder adds (`request.<field>`, e.g. bedrock's
 * `reasoning`): on a vendor, only when the vendor speaks a protocol that reads the fact; on a model,
 * only when one of the vendors it reaches does.
 */
import type { SchemaGatewayFile } from '../../generated/config-types.ts';
import { PROTOCOL_REQUEST_FACTS } from '../../generated/protocols.ts';
import { getTargetVendor } from './get-target-vendor.ts';

/** A place in the config and what is wrong there. */
type Report = (path: (string | number)[], message: string) => void;

/** Reports each protocol-owned request fact no vendor of its place reads. */
export function checkRequestFacts(config: SchemaGatewayFile, report: Report): void {
  const vendors = config.vendors ?? {};
  const models = config.models ?? {};
  const protocolOf = (name: unknown): string | undefined => (typeof name === 'string' ? vendors[name]?.protocol : undefined);
  const check = (path: (string | number)[], request: unknown, protocols: Array<string | undefined>) => {
    if (!request || typeof request !== 'object') return;
    for (const fact of Object.keys(request)) {
      const readers = PROTOCOL_REQUEST_FACTS[fact] as readonly string[] | undefined;
      if (!readers || protocols.some((protocol) => protocol !== undefined && readers.includes(protocol))) continue;
      const reached = protocols.filter((protocol) => protocol !== undefined).join(', ') || 'none';
      report([...path, 'request', fact], `only vendors of protocol ${readers.join(' or ')} read it (this one reaches: ${reached})`);
    }
  };
  for (const [name, vendor] of Object.entries(vendors)) check(['vendors', name], vendor.request, [vendor.protocol]);
  for (const [id, model] of Object.entries(models)) {
    // A model without request facts has nothing to check: its vendors are not looked up (10,000 models).
    if (!model.request) continue;
    const refs = [...(model.targets ?? []), ...(model.fallback ?? [])];
    const named = [model.vendor, ...refs.map((ref) => getTargetVendor(models, ref))];
    check(['models', id], model.request, named.map(protocolOf));
  }
}
