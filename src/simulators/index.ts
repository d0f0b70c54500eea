/**
 * Simulated vendors: real local HTTP servers speaking each vendor's wire format (see
 * test/fixtures/vendors). Used by `--simulate`, by every test and by the benchmark.
 */
import { startAnthropicSimulator } from './anthropic.ts';
import { startBedrockSimulator, type BedrockSimulator } from '../protocols/bedrock/simulator/index.ts';
import { startDashScopeSimulator } from './dashscope.ts';
import { startGeminiSimulator } from './gemini.ts';
import { SIMULATOR_KEY_ID, SIMULATOR_KEYS } from './keys.ts';
import { startOpenAISimulator, type OpenAISimulator } from './openai.ts';
import type { SimulatedVendor, Simulator, SimulatorOptions } from './types.ts';

export type { Fault, RecordedRequest, SimulatedVendor, Simulator, SimulatorOptions } from './types.ts';
export type { OpenAISimulator } from './openai.ts';
export type { MultipartRecord } from './openai-state.ts';
export { SIMULATOR_KEY_ID, SIMULATOR_KEYS, startAnthropicSimulator, startDashScopeSimulator, startGeminiSimulator, startOpenAISimulator };


/**
 * Starts all five simulators (keys default to SIMULATOR_KEYS; `options` per vendor, e.g. the usage
 * shapes of SimulatorOptions); `close()` stops them all.
 */
export async function startSimulators(o: { keys?: Partial<Record<SimulatedVendor, string>>; options?: Partial<Record<SimulatedVendor, SimulatorOptions>> } = {}): Promise<{
  openai: OpenAISimulator;
  anthropic: Simulator;
  gemini: Simulator;
  dashscope: Simulator;
  bedrock: BedrockSimulator;
  close(): Promise<void>;
}> {
  const keys = { ...SIMULATOR_KEYS, ...o.keys };
  const [openai, anthropic, gemini, dashscope, bedrock] = await Promise.all([
    startOpenAISimulator({ ...o.options?.openai, key: keys.openai }),
    startAnthropicSimulator({ ...o.options?.anthropic, key: keys.anthropic }),
    startGeminiSimulator({ ...o.options?.gemini, key: keys.gemini }),
    startDashScopeSimulator({ ...o.options?.dashscope, key: keys.dashscope }),
    startBedrockSimulator({ ...o.options?.bedrock, key: keys.bedrock }),
  ]);
  return {
    openai,
    anthropic,
    gemini,
    dashscope,
    bedrock,
    async close(): Promise<void> {
      await Promise.all([openai.close(), anthropic.close(), gemini.close(), dashscope.close(), bedrock.close()]);
    },
  };
}
