/**
 * The gateway's dispatch table, listed in one place: every module that serves operations contributes its
 * handler set here, and the translators answer what no handler or passthrough serves. Built once when the
 * gateway loads; no module registers itself by being imported. It lives beside createGateway, above the
 * runtime, which only runs the table it is given.
 */
import { imageHandlers } from '../images/index.ts';
import { storedResponseHandlers } from '../responses-state/serve-stored.ts';
import { responsesPassthroughHandlers } from '../responses-state/vendor-store-policy.ts';
import { createDispatchTable, type DispatchTable } from '../runtime/dispatch-table.ts';
import { listingHandlers } from '../runtime/listings.ts';
import { requestFactsHandlers } from '../runtime/passthrough-request-facts.ts';
import { videoHandlers } from '../runtime/videos.ts';
import { getTranslator } from '../translate/index.ts';

/** Which handler serves an operation called in a style for a vendor of a protocol (see runtime/dispatch-table.ts). */
export const GATEWAY_DISPATCH: DispatchTable = createDispatchTable(
  [listingHandlers, videoHandlers, imageHandlers, storedResponseHandlers, responsesPassthroughHandlers, requestFactsHandlers],
  getTranslator,
);
