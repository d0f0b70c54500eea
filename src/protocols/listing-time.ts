/** The creation time model listings show (Unix seconds): models come from config, which has no creation time. */
export const LISTED_MODEL_CREATED = 1735689600;
