/**
 * The benchmark's scenarios, in the order they run (after the vendor headroom check,
 * `HEADROOM_SCENARIOS`). A new one is a `defineLoadScenario({...})` or a `Scenario` object added here.
 */
import { buildTimeScenario } from './build-time.ts';
import { imagesScenario } from './images.ts';
import { modelCountScenario } from './model-count.ts';
import { quietChatScenario, quietStreamScenario } from './quiet.ts';
import { chatLatencyScenario, chatThroughputScenario, streamThroughputScenario, uploadScenario } from './passthrough.ts';
import { slowStreamsScenario } from './slow-streams.ts';
import { startupRssScenario } from './startup-rss.ts';
import { streamTtfbScenario } from './stream-ttfb.ts';
import { translatedStreamScenario } from './translated-stream.ts';
import { translatingFloorScenario } from './translating-floor.ts';
import type { Scenario } from './types.ts';

/** Every scenario, in running order. */
export const SCENARIOS: Scenario[] = [
  chatLatencyScenario,
  chatThroughputScenario,
  streamThroughputScenario,
  streamTtfbScenario,
  translatedStreamScenario,
  translatingFloorScenario,
  uploadScenario,
  imagesScenario,
  slowStreamsScenario,
  modelCountScenario,
  buildTimeScenario,
  startupRssScenario,
];

/** The quiet gateway's rows (log silent, no limits), run after the streaming rows with `--quiet-rows`. */
export const QUIET_SCENARIOS: Scenario[] = [quietChatScenario, quietStreamScenario];

export { HEADROOM_SCENARIOS } from './headroom.ts';
