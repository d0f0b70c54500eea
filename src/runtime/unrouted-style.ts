import type { RouteEntry, Style } from '../config/types.ts';
import { DEFAULT_STYLE } from '../protocols/styles.ts';

/** The literal start of a route's path: everything before its first `{parameter}`. */
function getLiteralPrefix(path: string): string {
  const brace = path.indexOf('{');
  return brace === -1 ? path : path.slice(0, brace);
}

/** How many leading characters two paths share, counted to the end of the last whole segment they share. */
function countSharedSegments(a: string, b: string): number {
  let shared = 0;
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length && a[i] === b[i]; i++) if (a[i] === '/' || i === b.length - 1) shared = i + 1;
  return shared;
}

/**
 * The error style of a path no route matched, read from the route table: the style of the routes whose paths
 * share the most leading segments with it (a `/v1beta/...` path answers like the generate-content routes, a
 * `/v1/messages/...` path like the messages routes). Ties, and paths sharing nothing, answer in
 * {@link DEFAULT_STYLE} when it is among the tied styles, else in the tied style first by name.
 */
export function createUnroutedStyle(routes: RouteEntry[]): (path: string) => Style {
  const prefixes = [...new Map(routes.map((route) => [`${route.style} ${getLiteralPrefix(route.path)}`, route])).values()];
  return (path) => {
    let best = 0;
    let styles = new Set<Style>();
    for (const route of prefixes) {
      const shared = countSharedSegments(path, getLiteralPrefix(route.path));
      if (shared > best) {
        best = shared;
        styles = new Set([route.style]);
      } else if (shared === best && shared > 0) styles.add(route.style);
    }
    if (styles.size === 0 || styles.has(DEFAULT_STYLE)) return DEFAULT_STYLE;
    return [...styles].sort()[0];
  };
}
