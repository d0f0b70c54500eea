import { DEFAULT_STYLE, STYLES } from '../protocols/styles.ts';
import type { Style } from '../config/types.ts';
import type { RequestContext } from './types.ts';

const STYLE_NAMES = Object.keys(STYLES) as Style[];

/**
 * The style a request is answered in when the answer's shape is not the route's own business (model
 * listings): the route's style, except on the default style's routes, which several SDKs share (`GET
 * /v1/models`), where a request carrying another style's SDK header is answered in that style.
 */
export function getAnswerStyle(ctx: RequestContext): Style {
  if (ctx.style !== DEFAULT_STYLE) return ctx.style;
  for (const style of STYLE_NAMES) {
    const header = STYLES[style].sdkHeader;
    if (header !== undefined && ctx.req.headers[header] !== undefined) return style;
  }
  return ctx.style;
}
