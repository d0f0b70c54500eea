import type { CompiledConfig } from '../config/types.ts';

/** A problem found at start-up, and how loudly to log it. */
export interface StartupWarning {
  level: 'warn' | 'error';
  message: string;
}

/**
 * What cannot work with this config and environment, said once at start-up: each vendor whose `env:`
 * key is unset (its models answer 503 vendor_not_configured) and, at `error`, no usable client key at
 * all (every request would be answered 401). Not called in simulate mode, which supplies every key.
 */
export function getStartupWarnings(config: CompiledConfig, env: NodeJS.ProcessEnv): StartupWarning[] {
  const warnings: StartupWarning[] = [];
  for (const vendor of Object.values(config.vendors)) {
    if (vendor.auth.kind === 'none') continue;
    const unset = (vendor.auth.kind === 'signed' ? [vendor.auth.idEnv, vendor.auth.env] : [vendor.auth.env]).filter((name) => !env[name]);
    if (unset.length === 0) continue;
    warnings.push({
      level: 'warn',
      message: `vendor "${vendor.name}": ${unset.join(' and ')} ${unset.length > 1 ? 'are' : 'is'} not set; its models answer 503 vendor_not_configured`,
    });
  }
  const usable = config.keys.some((key) => 'sha256' in key.secret || env[key.secret.env]);
  if (!usable) {
    const names = config.keys.map((key) => ('env' in key.secret ? key.secret.env : key.name));
    warnings.push({
      level: 'error',
      message: `NO CLIENT KEY IS USABLE: ${names.length ? `none of ${names.join(', ')} is set` : 'keys: is empty'}; every request will be answered 401`,
    });
  }
  return warnings;
}
