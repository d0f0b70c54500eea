import { GatewayError } from '../errors.ts';

type Listener = () => void;

/**
 * What aborts a request's vendor calls when its client leaves. undici accepts an emitter as a request's
 * `signal`, so passthrough calls use this one directly; an AbortSignal (an EventTarget, several times
 * dearer to create and to listen on) is only made when a handler asks for `signal`.
 */
export class AbortSource {
  aborted = false;
  reason: unknown = undefined;
  private listeners: Listener[] = [];
  private controller?: AbortController;

  /** An AbortSignal that follows this source (created on first use). */
  get signal(): AbortSignal {
    if (!this.controller) {
      this.controller = new AbortController();
      if (this.aborted) this.controller.abort(this.reason);
    }
    return this.controller.signal;
  }

  /** Aborts every listener and the signal, once. */
  abort(reason: unknown = new GatewayError(499, 'client_closed_request', 'The client closed the request.')): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason;
    const listeners = this.listeners;
    this.listeners = [];
    for (const listener of listeners) listener();
    this.controller?.abort(reason);
  }

  on(_event: 'abort', listener: Listener): this {
    this.listeners.push(listener);
    return this;
  }

  once(event: 'abort', listener: Listener): this {
    return this.on(event, listener);
  }

  addListener(event: 'abort', listener: Listener): this {
    return this.on(event, listener);
  }

  removeListener(_event: 'abort', listener: Listener): this {
    const { listeners } = this;
    const at = listeners.indexOf(listener);
    // The last one (a vendor call's own, nearly always alone) is popped: splice builds an array of what it removes.
    if (at === listeners.length - 1) listeners.pop();
    else if (at !== -1) listeners.splice(at, 1);
    return this;
  }

  off(event: 'abort', listener: Listener): this {
    return this.removeListener(event, listener);
  }
}
