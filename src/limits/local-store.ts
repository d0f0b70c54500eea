import type { AdmitRequest, AdmitResult, LimitStore, ReserveRequest, ReserveResult, SettleRequest } from './store.ts';

/**
 * The per-request operations of a store that lives in this process, answered at once: the limiter calls
 * these instead of the {@link LimitStore} methods, so a request with limits waits on no promise and makes
 * none (each is a microtask and an object at thousands of requests a second). Slots and reservations
 * are named by no string: a slot is counted, and a reservation is settled by the handle its reservation
 * answered ({@link LocalReservation}); the caller settles each once and frees each slot it took once.
 */
export interface LocalLimitStore {
  /** {@link LimitStore.admit} without a slot (`slot` is not read: slots are taken by {@link takeSlot}). */
  admit(request: AdmitRequest): AdmitResult;
  /** Takes one concurrency slot of key `id`: undefined when taken, the refusal when the limit is full. */
  takeSlot(id: string, concurrency: number): AdmitResult | undefined;
  /** Frees one slot taken by {@link takeSlot} (never more than were taken). */
  freeSlot(id: string): void;
  /** {@link LimitStore.reserve} (`entry` is not read); a token reservation taken answers its handle. */
  reserve(request: LocalReserveRequest): LocalReserveResult;
  /** {@link LimitStore.settle} of the reservation `reservation` names (none: the tokens are charged from now). */
  settle(request: LocalSettleRequest): void;
  charge(id: string, tokens: number, windowMs: number): void;
}

/** Where a token reservation was counted, handed back to {@link LocalLimitStore.settle}: opaque to the caller. */
export interface LocalReservation {
  readonly window: object;
  readonly run: number;
}

/** A {@link ReserveRequest} without its entry name. */
export type LocalReserveRequest = Omit<ReserveRequest, 'entry'>;

/** A {@link ReserveResult} and, when tokens were reserved, where (settled by it). */
export interface LocalReserveResult extends ReserveResult {
  reservation?: LocalReservation;
}

/** A {@link SettleRequest} naming its reservation by the handle its reservation answered. */
export interface LocalSettleRequest extends Omit<SettleRequest, 'entry'> {
  reservation: LocalReservation | undefined;
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
