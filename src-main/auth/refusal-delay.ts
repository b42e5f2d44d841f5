export interface RefusalDelayOptions {
  /** How long a refused login waits before its 429 goes out; default 1 s. */
  delayMs?: number;
  /** Refusals held at once at most; further ones are answered at once. Default 256. */
  maxHeld?: number;
}

/**
 * Holds refused (429) logins for a moment before answering. A client that
 * waits for each answer (most guessing tools, a browser) can then send at
 * most one attempt per delay per connection, instead of turning cheap
 * refusals into thousands of requests a second that crowd the event loop and
 * slow every other request. Bounded: past `maxHeld` refusals go out at once,
 * so a client opening many connections costs memory for at most that many.
 */
export class RefusalDelay {
  readonly delayMs: number;
  readonly maxHeld: number;
  private heldNow = 0;

  constructor(options: RefusalDelayOptions = {}) {
    this.delayMs = Math.max(0, options.delayMs ?? 1000);
    this.maxHeld = Math.max(0, options.maxHeld ?? 256);
  }

  get held(): number {
    return this.heldNow;
  }

  /** Resolves after the delay, or at once when the delay is off or enough refusals are held already. */
  async hold(): Promise<void> {
    if (this.delayMs === 0 || this.heldNow >= this.maxHeld) return;
    this.heldNow += 1;
    try {
      await new Promise<void>((resolve) => setTimeout(resolve, this.delayMs).unref());
    } finally {
      this.heldNow -= 1;
    }
  }
}
