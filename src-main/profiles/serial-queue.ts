/**
 * Runs tasks one after another. Hosts and profiles share one queue (the
 * profiles area owns it, ProfileService.queue; the hosts area writes on it)
 * so that a read-check-write (MAC unique, profile still exists, profile not
 * in use) never interleaves with another write: two first boots of one
 * unknown machine record one host, not two.
 */
export class SerialQueue {
  private tail: Promise<unknown> = Promise.resolve();

  run<T>(task: () => Promise<T>): Promise<T> {
    const result = this.tail.catch(() => undefined).then(task);
    this.tail = result;
    return result;
  }
}
