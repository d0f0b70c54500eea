import type { ProtocolConfigFacts } from '../types.ts';

/** DashScope's config facts: nothing forwarded as it is (images go through tasks), no request facts. */
export const dashscopeConfigFacts: ProtocolConfigFacts = {
  passthrough: {},
  requestFacts: {},
};
