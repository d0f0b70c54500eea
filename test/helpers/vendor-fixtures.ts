import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const CANDIDATES = [
  process.env.GATEWAY_VENDOR_FIXTURES,
  // shared/ sits beside the repository's checkout.
  fileURLToPath(new URL('../../../shared/fixtures/vendors', import.meta.url)),
  '/work/shared/fixtures/vendors',
].filter((dir): dir is string => Boolean(dir));

/** The folder of verified vendor wire transcripts (`shared/fixtures/vendors` beside the checkout). */
export const VENDOR_FIXTURES = CANDIDATES.find((dir) => existsSync(dir)) ?? CANDIDATES[0];
