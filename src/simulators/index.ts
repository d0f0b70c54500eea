/**
 * Simulated vendors: real local HTTP servers speaking each vendor's wire format (see
 * test/fixtures/vendors). Used by `--simulate`, by every test and by the benchmark.
 */
import { startAnthropicSimulator } from './anthropic.ts';
import { startDashScopeSimulator } from './dashscope.ts';
import { startGeminiSimulator } from './gemini.ts';
import { SIMULATOR_KEYS } from './keys.ts';
import { startOpenAISimulator, type OpenAISimulator } from './openai.ts';
import type { SimulatedVendor, Simulator, SimulatorOptions } from './types.ts';

export type { Fault, RecordedRequest, SimulatedVendor, Simulator, SimulatorOptions } from './types.ts';
export type { OpenAISimulator } from './openai.ts';
export type { MultipartRecord } from './openai-state.ts';
export { SIMULATOR_KEYS, startAnthropicSimulator, startDashScopeSimulator, startGeminiSimulator, startOpenAISimulator };


/**
 * Starts all four simulators (keys default to SIMULATOR_KEYS; `options` per vendor, e.g. the usage
 * shapes of SimulatorOptions); `close()` stops them all.
 */
export async function startSimulators(o: { keys?: Partial<Record<SimulatedVendor, string>>; options?: Partial<Record<SimulatedVendor, SimulatorOptions>> } = {}): Promise<{
  openai: OpenAISimulator;
  anthropic: Simulator;
  gemini: Simulator;
  dashscope: Simulator;
  close(): Promise<void>;
}> {
  const keys = { ...SIMULATOR_KEYS, ...o.keys };
  const [openai, anthropic, gemini, dashscope] = await Promise.all([
    startOpenAISimulator({ ...o.options?.openai, key: keys.openai }),
    startAnthropicSimulator({ ...o.options?.anthropic, key: keys.anthropic }),
    startGeminiSimulator({ ...o.options?.gemini, key: keys.gemini }),
    startDashScopeSimulator({ ...o.options?.dashscope, key: keys.dashscope }),
  ]);
  return {
    openai,
    anthropic,
    gemini,
    dashscope,
    async close(): Promise<void> {
      await Promise.all([openai.close(), anthropic.close(), gemini.close(), dashscope.close()]);
    },
  };
}
