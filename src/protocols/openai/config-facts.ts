import type { ProtocolConfigFacts } from '../types.ts';

/** The OpenAI protocol's config facts: `/v1/*` endpoints forwarded as they are, and its two output-token fields. */
export const openaiConfigFacts: ProtocolConfigFacts = {
  passthrough: {
    chat: { method: 'POST', path: '/chat/completions', model: 'body' },
    responses: { method: 'POST', path: '/responses', model: 'body' },
    'responses-compact': { method: 'POST', path: '/responses/compact', model: 'body' },
    'responses-get': { method: 'GET', path: '/responses/{response_id}', model: 'none' },
    'responses-delete': { method: 'DELETE', path: '/responses/{response_id}', model: 'none' },
    'responses-input-items': { method: 'GET', path: '/responses/{response_id}/input_items', model: 'none' },
    completions: { method: 'POST', path: '/completions', model: 'body' },
    embeddings: { method: 'POST', path: '/embeddings', model: 'body' },
    rerank: { method: 'POST', path: '/rerank', model: 'body' },
    'images-generations': { method: 'POST', path: '/images/generations', model: 'body' },
    'images-edits': { method: 'POST', path: '/images/edits', model: 'body' },
    'audio-speech': { method: 'POST', path: '/audio/speech', model: 'body' },
    'audio-transcriptions': { method: 'POST', path: '/audio/transcriptions', model: 'body' },
    'audio-translations': { method: 'POST', path: '/audio/translations', model: 'body' },
    'videos-create': { method: 'POST', path: '/videos', model: 'body' },
    'videos-get': { method: 'GET', path: '/videos/{task_id}', model: 'none' },
    'videos-content': { method: 'GET', path: '/videos/{task_id}/content', model: 'none' },
    'videos-delete': { method: 'DELETE', path: '/videos/{task_id}', model: 'none' },
    'videos-remix': { method: 'POST', path: '/videos/{task_id}/remix', model: 'none' },
    moderations: { method: 'POST', path: '/moderations', model: 'body' },
    realtime: { method: 'GET', path: '/realtime', model: 'none' },
  },
  requestFacts: { maxTokensField: 'max_completion_tokens', ranges: { temperature: { min: 0, max: 2 }, topP: { min: 0, max: 1 } } },
};
