/** The key id a signed vendor's simulator accepts beside its key (the secret) unless started with another. */
export const SIMULATOR_KEY_ID = 'AKIAGATEWAYSIMULATOR';
