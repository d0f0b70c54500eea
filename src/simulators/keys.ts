import type { SimulatedVendor } from './types.ts';

/** The key each simulator accepts unless started with another. */
export const SIMULATOR_KEYS: Record<SimulatedVendor, string> = {
  openai: 'sk-sim-openai',
  anthropic: 'sk-ant-sim-anthropic',
  gemini: 'AIzaSy-sim-gemini',
  dashscope: 'sk-sim-dashscope',
  bedrock: 'sim-bedrock-secret-access-key',
};

/** The key id a signed vendor's simulator accepts beside its key (the secret) unless started with another. */
export const SIMULATOR_KEY_ID = 'AKIAGATEWAYSIMULATOR';
