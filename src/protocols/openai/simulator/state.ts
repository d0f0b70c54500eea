import { createIdMaker } from '../../../simulators/text.ts';

/** A response the simulated OpenAI keeps (`store` true or absent), as the Responses API keeps it. */
export interface SimStoredResponse {
  response: Record<string, any>;
  /** The items it was made from: its previous response's input and output, then its own input (with ids). */
  inputItems: Record<string, any>[];
}

/** One multipart request the OpenAI simulator parsed (images/edits, audio transcriptions/translations). */
export interface MultipartRecord {
  path: string;
  fields: Record<string, string>;
  files: { field: string; filename: string; mimeType: string; size: number }[];
}

/** A simulated video job. */
export interface SimVideo {
  id: string;
  model: string;
  prompt: string;
  seconds: string;
  size: string;
  createdAt: number;
}

/** Mutable state of one OpenAI simulator, shared by its endpoint handlers. */
export interface OpenAIState {
  key: string;
  /** `http://127.0.0.1:P` once listening (image URLs point here). */
  origin: string;
  streamEvents?: number;
  streamIntervalMs: number;
  /** Prompt tokens reported as cached (SimulatorOptions.cachedInputTokens). */
  cachedInputTokens: number;
  nextId: () => string;
  /** Ids of images served at GET /files/<id>.png. */
  files: Set<string>;
  videos: Map<string, SimVideo>;
  multipart: MultipartRecord[];
  /** Responses kept by id (POST /v1/responses without `store: false`). */
  responses: Map<string, SimStoredResponse>;
}

/** Creates the state of a fresh OpenAI simulator. */
export function createOpenAIState(key: string, streamEvents: number | undefined, streamIntervalMs: number): OpenAIState {
  return {
    key,
    origin: '',
    streamEvents,
    streamIntervalMs,
    cachedInputTokens: 0,
    nextId: createIdMaker('sim'),
    files: new Set(),
    videos: new Map(),
    multipart: [],
    responses: new Map(),
  };
}
