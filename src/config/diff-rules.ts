/**
 * What the config differ needs to know about gateway.yaml beyond its plain shape: which list entries
 * have an identity (so a change reads `keys.team-a.limits.rpm`, not `keys.3.limits.rpm`), which values
 * are secret, and the order sections are printed in. Everything else is diffed generically, so a
 * section added to gateway.yaml later (budgets, prices) shows up with no change here.
 */

/** One segment of a secret-path pattern: a literal name, `*` for any, or a pattern on the name. */
export type PathPattern = readonly (string | RegExp)[];

/**
 * Paths whose values are secret: a change there is reported as "changed" with neither value. A key's
 * secret source (`key: env:NAME` or `sha256: <digest>`) counts as secret as a whole; a vendor header
 * whose name looks like a credential may carry a literal token.
 */
export const SECRET_PATHS: readonly PathPattern[] = [
  ['keys', '*', 'key'],
  ['keys', '*', 'sha256'],
  ['vendors', '*', 'headers', /auth|key|token|secret|cookie|password/i],
];

/** The stand-in printed wherever a secret value would be. */
export const SECRET_MARK = '(secret)';

/** Lists whose entries are matched by identity instead of position, and how to name an entry. */
export const LIST_IDENTITIES: Readonly<Record<string, (entry: any) => string | undefined>> = {
  keys: (entry) => (typeof entry?.name === 'string' ? entry.name : undefined),
  routes: (entry) => (entry && typeof entry.path === 'string' ? `${entry.method} ${entry.path}` : undefined),
};

/** Sections in the order a reviewer reads them; sections not listed follow alphabetically. */
export const SECTION_ORDER: readonly string[] = ['server', 'vendors', 'models', 'keys', 'routes', 'transforms'];

/** Whether a path matches one of {@link SECRET_PATHS}. */
export function isSecretPath(path: readonly (string | number)[]): boolean {
  return SECRET_PATHS.some(
    (pattern) =>
      pattern.length === path.length &&
      pattern.every((part, i) => part === '*' || (typeof part === 'string' ? part === path[i] : part.test(String(path[i])))),
  );
}
