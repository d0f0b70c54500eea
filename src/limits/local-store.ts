import type { AdmitRequest, AdmitResult, LimitStore, ReserveRequest, ReserveResult, SettleRequest } from './store.ts';

/**
 * The per-request operations of a store that lives in this process, answered at once: the limiter calls
 * these instead of the {@link LimitStore} methods of the same name, so a request with limits waits on no
 * promise and makes none (each is a microtask and an object at thousands of requests a second).
 */
export interface LocalLimitStore {
  admit(request: AdmitRequest): AdmitResult;
  reserve(request: ReserveRequest): ReserveResult;
  settle(request: SettleRequest): void;
  charge(id: string, tokens: number, windowMs: number): void;
  release(id: string, slot: string): void;
}

const locals = new WeakMap<LimitStore, LocalLimitStore>();

/** Registers `local` as the immediate form of `store`'s operations; returns `store`. */
export function defineLocalStore(local: LocalLimitStore, store: LimitStore): LimitStore {
  locals.set(store, local);
  return store;
}

/**
 * The immediate operations of `store`, or undefined for a store behind a network. Registered on the store
 * object itself: a wrapper made by spreading a store (`{ ...store, admit }`) is another object, so the
 * limiter calls the wrapper's own methods.
 */
export function getLocalStore(store: LimitStore): LocalLimitStore | undefined {
  return locals.get(store);
}
