import type { RouteEntry } from '../config/types.ts';
import type { RouteMatch } from './types.ts';

interface ParamRoute {
  route: RouteEntry;
  pattern: RegExp;
  names: string[];
}

/** A percent-decoded path parameter, or undefined when its escapes are malformed (`%FF`, `%`, `%E0%A4`). */
function decodePathParam(text: string): string | undefined {
  if (!text.includes('%')) return text;
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
}

/**
 * Builds the route matcher of a snapshot once: static paths are a Map lookup by method then path, templated paths
 * (`/v1/videos/{task_id}`, `/v1beta/models/{model}:generateContent`) one precompiled regex each. A parameter whose percent-escapes do not decode is reported as
 * `invalidParam` (answered 400 by the request handler), never thrown.
 */
export function createRouteMatcher(routes: RouteEntry[]): (method: string, path: string) => RouteMatch | undefined {
  const exact = new Map<string, Map<string, RouteMatch>>();
  const templated: ParamRoute[] = [];
  for (const route of routes) {
    if (!route.path.includes('{')) {
      let paths = exact.get(route.method);
      if (!paths) exact.set(route.method, (paths = new Map()));
      paths.set(route.path, { route, params: {} });
      continue;
    }
    const names: string[] = [];
    const source = route.path
      .split(/(\{[^}]+\})/)
      .map((part) => {
        if (part.startsWith('{')) {
          names.push(part.slice(1, -1));
          return '([^/:]+)';
        }
        return part.replace(/[.*+?^$()|[\]\\]/g, '\\$&');
      })
      .join('');
    templated.push({ route, pattern: new RegExp(`^${source}$`), names });
  }
  return (method, path) => {
    const hit = exact.get(method)?.get(path);
    if (hit) return hit;
    for (const { route, pattern, names } of templated) {
      if (route.method !== method) continue;
      const match = pattern.exec(path);
      if (!match) continue;
      const params: Record<string, string> = {};
      for (let i = 0; i < names.length; i++) {
        const value = decodePathParam(match[i + 1]);
        if (value === undefined) return { route, params: {}, invalidParam: names[i] };
        params[names[i]] = value;
      }
      return { route, params };
    }
    return undefined;
  };
}
