import type { ValueStore } from '../limits/store.ts';
import { toText } from '../lib/to-text.ts';

/** A Responses API item (message, function call, function call output, reasoning ...) as JSON. */
export type ResponseItem = Record<string, any>;

/** A response kept by the gateway, bound to the client key (by name) that created it. */
export interface StoredResponse {
  id: string;
  /** The model id the client asked for. */
  model: string;
  /** The response object as it was answered. */
  response: Record<string, unknown>;
  /** The items this request sent (references resolved; each with an id). */
  input: ResponseItem[];
  /** The items before them: what `previous_response_id` resolved to. */
  context: ResponseItem[];
}

/** Responses and their items over a {@link ValueStore}, every lookup scoped to one client key. */
export interface ResponseStore {
  /**
   * Keeps a response and the items it introduced (indexed by id for `item_reference`) for `ttlMs`;
   * false, and nothing kept, when its JSON is larger than `maxBytes`.
   */
  save(key: string, record: StoredResponse, items: ResponseItem[], limits: { ttlMs: number; maxBytes: number }): Promise<boolean>;
  /** A response of this key, or undefined (unknown, expired, deleted or another key's). */
  get(key: string, id: string): Promise<StoredResponse | undefined>;
  /** An item of this key's responses, or undefined. */
  getItem(key: string, id: string): Promise<ResponseItem | undefined>;
  /** Deletes a response of this key and the items it introduced; false when there was none. */
  delete(key: string, id: string): Promise<boolean>;
  /** Notes, for `ttlMs`, that `vendor` keeps response `id`, created through it by this key (never its body). */
  saveVendorHeld(key: string, id: string, vendor: string, ttlMs: number): Promise<void>;
  /** The vendor keeping a response this key created, or undefined (unknown, expired, another key's). */
  getVendorHeld(key: string, id: string): Promise<string | undefined>;
  /** Forgets that a vendor keeps a response of this key (the vendor deleted it). */
  deleteVendorHeld(key: string, id: string): Promise<void>;
}

const responseKey = (key: string, id: string): string => `resp:${key}:${id}`;
const itemKey = (key: string, id: string): string => `item:${key}:${id}`;
const heldKey = (key: string, id: string): string => `vresp:${key}:${id}`;

/** The value stored under a response: the record and the ids of the items it owns. */
interface Envelope {
  record: StoredResponse;
  items: string[];
}

/** Creates the response store over `values` (Redis when `server.store` names one, else bounded memory). */
export function createResponseStore(values: ValueStore): ResponseStore {
  return {
    async save(key, record, items, limits) {
      const envelope: Envelope = { record, items: items.map((item) => toText(item.id)) };
      const text = JSON.stringify(envelope);
      const itemTexts = items.map((item) => [itemKey(key, toText(item.id)), JSON.stringify(item)] as const);
      const size = Buffer.byteLength(text) + itemTexts.reduce((sum, [, value]) => sum + Buffer.byteLength(value), 0);
      if (size > limits.maxBytes) return false;
      await values.set([[responseKey(key, record.id), text], ...itemTexts], limits.ttlMs);
      return true;
    },
    async get(key, id) {
      return (await readEnvelope(values, key, id))?.record;
    },
    async getItem(key, id) {
      const text = await values.get(itemKey(key, id));
      return text === undefined ? undefined : (JSON.parse(text) as ResponseItem);
    },
    async delete(key, id) {
      const envelope = await readEnvelope(values, key, id);
      if (!envelope) return false;
      await values.delete([responseKey(key, id), ...envelope.items.map((item) => itemKey(key, item))]);
      return true;
    },
    async saveVendorHeld(key, id, vendor, ttlMs) {
      await values.set([[heldKey(key, id), vendor]], ttlMs);
    },
    async getVendorHeld(key, id) {
      return values.get(heldKey(key, id));
    },
    async deleteVendorHeld(key, id) {
      await values.delete([heldKey(key, id)]);
    },
  };
}

async function readEnvelope(values: ValueStore, key: string, id: string): Promise<Envelope | undefined> {
  const text = await values.get(responseKey(key, id));
  return text === undefined ? undefined : (JSON.parse(text) as Envelope);
}
