import type { Style } from '../config/types.ts';
import { anthropicStyle } from './anthropic/style.ts';
import { geminiStyle } from './gemini/style.ts';
import { openaiStyle } from './openai/style.ts';
import type { StyleFacts } from './style-types.ts';

/**
 * The client styles: the style facts of each protocol that is also a client style, by style name. The
 * `Style` type is generated from these keys (`npm run build` writes generated/protocols.ts). Kept apart
 * from the adapters of `index.ts` because error rendering reads it and must not load the translators.
 */
export const STYLES = {
  openai: openaiStyle,
  anthropic: anthropicStyle,
  gemini: geminiStyle,
} satisfies Record<Style, StyleFacts>;

/** The style of answers given before any route is known, and of routes shared by several SDKs. */
export const DEFAULT_STYLE: Style = 'openai';

/** The style facts of `style`. */
export function getStyleFacts(style: Style): StyleFacts {
  return STYLES[style];
}
