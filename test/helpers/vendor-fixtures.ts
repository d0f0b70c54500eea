import { fileURLToPath } from 'node:url';

/**
 * The folder of verified vendor wire transcripts, with their sources (`test/fixtures/vendors`, copied from
 * the project's shared fixtures so that a clone of the repository alone passes `npm test`).
 */
export const VENDOR_FIXTURES = fileURLToPath(new URL('../fixtures/vendors', import.meta.url));
