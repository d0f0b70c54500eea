/**
 * The benchmark's scenarios, in the order they run. A new one (the translated stream of issue 4, images
 * shape A -> envelope of issue 3) is a `defineLoadScenario({...})` or a `Scenario` object added here.
 */
import { buildTimeScenario } from './build-time.ts';
import { modelCountScenario } from './model-count.ts';
import { chatLatencyScenario, chatThroughputScenario, streamThroughputScenario, uploadScenario } from './passthrough.ts';
import { slowStreamsScenario } from './slow-streams.ts';
import { startupRssScenario } from './startup-rss.ts';
import { streamTtfbScenario } from './stream-ttfb.ts';
import type { Scenario } from './types.ts';

/** Every scenario, in running order. */
export const SCENARIOS: Scenario[] = [
  chatLatencyScenario,
  chatThroughputScenario,
  streamThroughputScenario,
  streamTtfbScenario,
  uploadScenario,
  slowStreamsScenario,
  modelCountScenario,
  buildTimeScenario,
  startupRssScenario,
];
