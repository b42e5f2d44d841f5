/** A progress reporter that emits at most once per interval, and `flush()` for the last word. */
export interface Throttled<A extends unknown[]> {
  (...args: A): void;
  /** Emits the newest progress if it was held back. */
  flush(): void;
}

/**
 * Progress events at most every `intervalMs` (docs/os-images.md, "Events"):
 * the first call emits, later ones within the interval are held back and the
 * newest of them goes out with the next call past the interval or with flush().
 */
export function progressThrottle<A extends unknown[]>(intervalMs: number, emit: (...args: A) => void, now: () => number = Date.now): Throttled<A> {
  let last = Number.NEGATIVE_INFINITY;
  let pending: A | null = null;
  const throttled = ((...args: A) => {
    const at = now();
    if (at - last >= intervalMs) {
      last = at;
      pending = null;
      emit(...args);
      return;
    }
    pending = args;
  }) as Throttled<A>;
  throttled.flush = () => {
    if (pending === null) return;
    const args = pending;
    pending = null;
    last = now();
    emit(...args);
  };
  return throttled;
}
