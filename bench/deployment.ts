/**
 * How the benchmark runs the gateway. The targets are judged on the gateway as deployed: its request log
 * at `info` written to a file (stdout redirected to it: not silent, not a TTY) and a per-key limit on the
 * benchmark's key (rpm, tpm and concurrency so high they never reject, so usage is read and charged on
 * every request). The quiet gateway (log silent, no limits) is a secondary reference only.
 */

/** Per-key limits that never reject in a benchmark run yet make the limiter count every request and token. */
export const BENCH_KEY_LIMITS = { rpm: 1_000_000_000, tpm: 1_000_000_000_000, concurrency: 100_000 };

/** One way of running the gateway. */
export interface GatewayDeployment {
  id: 'as-deployed' | 'quiet' | 'baseline';
  /** Label of the gateway side in rows measured with it. */
  label: string;
  logLevel: 'info' | 'silent';
  /** Where the request log goes: a file the gateway's stdout is redirected to, or nowhere (level silent). */
  logTo: 'file' | 'none';
  /** Limits on the benchmark's key (`keys[].limits`); none when absent. */
  limits?: typeof BENCH_KEY_LIMITS;
  /** Metrics on: the admin listener (`server.admin`, on an ephemeral port) and so every request recorded. */
  metrics: boolean;
  /** gateway.yaml's text the routes, transforms and models come from (absent: this checkout's gateway.yaml). */
  defaultsYaml?: string;
}

/** The gateway as users run it: the rows the targets are judged on. */
export const AS_DEPLOYED: GatewayDeployment = { id: 'as-deployed', label: 'gateway', logLevel: 'info', logTo: 'file', limits: BENCH_KEY_LIMITS, metrics: true };

/** The gateway with its log off and no limits (what the bench measured before issue 12): reference only. */
export const QUIET: GatewayDeployment = { id: 'quiet', label: 'gateway, quiet', logLevel: 'silent', logTo: 'none', metrics: false };

const formatCount = (n: number) => n.toLocaleString('en-US');

/**
 * The gateway of a baseline commit (`--baseline REF`) as it was deployed then: log and limits as
 * {@link AS_DEPLOYED}, with that commit's own gateway.yaml (its routes and models), and metrics only when
 * asked (a commit from before metrics has no `server.admin`).
 */
export function defineBaselineDeployment(label: string, defaultsYaml: string, metrics: boolean): GatewayDeployment {
  return { ...AS_DEPLOYED, id: 'baseline', label, metrics, defaultsYaml };
}

/** One line saying how a deployment runs the gateway (for RESULTS.md and the terminal). */
export function describeDeployment(deployment: GatewayDeployment): string {
  const log =
    deployment.logTo === 'file' ? `request log at ${deployment.logLevel} written to a file (stdout redirected, not a TTY)` : `request log ${deployment.logLevel}`;
  const limits = deployment.limits
    ? `per-key limits on the bench key (rpm ${formatCount(deployment.limits.rpm)}, tpm ${formatCount(deployment.limits.tpm)}, ` +
      `concurrency ${formatCount(deployment.limits.concurrency)}: never reached, so usage is read and charged on every request)`
    : 'no limits';
  const metrics = deployment.metrics ? 'metrics on (server.admin set: every request recorded in the metrics)' : 'metrics off';
  return `${log}; ${limits}; ${metrics}`;
}
