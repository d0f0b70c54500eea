/**
 * Every operation a route can name: the list the build writes into the config schema's `op` enum
 * (src/codegen/compose-config-schema.ts), whence the `Operation` type (generated/config-types.ts).
 * Each protocol adapter declares which of them it serves.
 */
export const OPERATIONS = [
  'audio-speech',
  'audio-transcriptions',
  'audio-translations',
  'chat',
  'completions',
  'count-tokens',
  'embeddings',
  'generate-content',
  'images-edits',
  'images-generations',
  'messages',
  'model-get',
  'models-list',
  'moderations',
  'native',
  'realtime',
  'rerank',
  'responses',
  'responses-compact',
  'responses-delete',
  'responses-get',
  'responses-input-items',
  'stream-generate-content',
  'videos-content',
  'videos-create',
  'videos-get',
  'videos-delete',
  'videos-remix',
] as const;
