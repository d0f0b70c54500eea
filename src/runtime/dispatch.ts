/**
 * The gateway's dispatch table, listed in one place: every module that serves operations contributes its
 * handler set here, and the translators answer what no handler or passthrough serves. Built once when the
 * runtime loads; no module registers itself by being imported.
 */
import { imageHandlers } from '../images/index.ts';
import { storedResponseHandlers } from '../responses-state/serve-stored.ts';
import { responsesPassthroughHandlers } from '../responses-state/vendor-store-policy.ts';
import { getTranslator } from './translation/get-translator.ts';
import { createDispatchTable } from './dispatch-table.ts';
import { listingHandlers } from './listings.ts';
import { requestFactsHandlers } from './passthrough-request-facts.ts';
import { videoHandlers } from './videos.ts';

const table = createDispatchTable(
  [listingHandlers, videoHandlers, imageHandlers, storedResponseHandlers, responsesPassthroughHandlers, requestFactsHandlers],
  getTranslator,
);

/** The handler serving an operation called in a style for a vendor of a protocol (see dispatch-table.ts). */
export const getHandler = table.getHandler;

/** The handler of a model-less operation, or 501. */
export const getModellessHandler = table.getModellessHandler;
