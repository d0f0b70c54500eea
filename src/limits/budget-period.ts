import type { BudgetSpec } from '../config/types.ts';
import type { BudgetRequest } from './store.ts';

/** Nano-USD in one USD: budgets are counted in integers of these, exact up to a million USD. */
export const NANO_PER_USD = 1_000_000_000;

/** A day past a period's end, its counter is dropped (late settlements still find it). */
export const KEEP_AFTER_MS = 86_400_000;

/**
 * The UTC period of `budget` that `time` falls in, as the store counts it: named `dYYYY-MM-DD` or
 * `mYYYY-MM`, kept until a day after it ends.
 */
export function getBudgetPeriod(budget: BudgetSpec, time: number): BudgetRequest {
  const date = new Date(time);
  const year = date.getUTCFullYear();
  const month = date.getUTCMonth();
  const day = budget.period === 'day';
  const end = day ? Date.UTC(year, month, date.getUTCDate() + 1) : Date.UTC(year, month + 1, 1);
  const iso = date.toISOString();
  return {
    period: day ? `d${iso.slice(0, 10)}` : `m${iso.slice(0, 7)}`,
    limitNano: Math.round(budget.usd * NANO_PER_USD),
    ttlMs: end - time + KEEP_AFTER_MS,
  };
}

/** USD as nano-USD integers (never negative). */
export function toNano(usd: number): number {
  return usd > 0 ? Math.round(usd * NANO_PER_USD) : 0;
}

/** USD with six decimals (never negative). */
export function formatUsd(nano: number): string {
  return (Math.max(0, nano) / NANO_PER_USD).toFixed(6);
}

/** The response header with what is left of the key's budget (USD, after this request's reservation). */
export const BUDGET_HEADER = 'x-gateway-budget-remaining-usd';
