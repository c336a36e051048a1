/** How many password hashes may run at once: in this process, and for one client address. */
export interface HashCaps {
  perProcess: number;
  perAddress: number;
}

/**
 * Two of libuv's four threads at most, so static files and the rest of the proxy's file and
 * crypto work keep two (a queue of 400 hashes once held a page for 34 s); one per address, so
 * one client cannot take both.
 */
export const DEFAULT_HASH_CAPS: HashCaps = { perProcess: 2, perAddress: 1 };

/**
 * The password hashes in flight, counted synchronously: a try that would pass a cap is refused
 * at once, never queued, so a burst cannot fill the thread pool or wait behind itself.
 */
export class HashesInFlight {
  private running = 0;
  private readonly byAddress = new Map<string, number>();
  private readonly caps: HashCaps;

  constructor(caps: HashCaps = DEFAULT_HASH_CAPS) {
    this.caps = caps;
  }

  /** A slot for one hash for `address` (its addressKey), and how to leave it; undefined when full. */
  enter(address: string): (() => void) | undefined {
    const mine = this.byAddress.get(address) ?? 0;
    if (this.running >= this.caps.perProcess || mine >= this.caps.perAddress)
      return undefined;
    this.running += 1;
    this.byAddress.set(address, mine + 1);
    let left = false;
    return () => {
      if (left) return;
      left = true;
      this.running -= 1;
      const still = (this.byAddress.get(address) ?? 1) - 1;
      if (still > 0) this.byAddress.set(address, still);
      else this.byAddress.delete(address);
    };
  }
}
