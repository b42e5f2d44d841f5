/**
 * Coalesces commits: while one write is in flight, every further commit()
 * waits for the next single write, which carries all changes made so far.
 * Throughput therefore stays at "one file rewrite per disk round trip", not
 * one per change, and each caller still learns when its change is on disk.
 */
export class GroupCommit {
  private readonly write: () => Promise<void>;
  private inFlight: Promise<void> | null = null;
  private next: { promise: Promise<void>; resolve: () => void; reject: (err: unknown) => void } | null = null;

  constructor(write: () => Promise<void>) {
    this.write = write;
  }

  /** Resolves once every change made before this call is durable. */
  commit(): Promise<void> {
    if (this.next) return this.next.promise;
    let resolve!: () => void;
    let reject!: (err: unknown) => void;
    const promise = new Promise<void>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    this.next = { promise, resolve, reject };
    if (!this.inFlight) void this.drain();
    return promise;
  }

  /** Resolves when nothing is pending (for shutdown). */
  async idle(): Promise<void> {
    while (this.inFlight || this.next) {
      await (this.inFlight ?? this.next?.promise)?.catch(() => undefined);
    }
  }

  private async drain(): Promise<void> {
    while (this.next) {
      const batch = this.next;
      this.next = null;
      // write() snapshots the data synchronously, so changes made after this
      // point belong to the next batch.
      this.inFlight = this.write();
      try {
        await this.inFlight;
        batch.resolve();
      } catch (err) {
        batch.reject(err);
      } finally {
        this.inFlight = null;
      }
    }
  }
}
