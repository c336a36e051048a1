// How the run's dispatcher sleeps: until something changes (an answer, pause, resume, cancel),
// or until a time, whichever comes first. Without it a lifted rate-limit wait or a cancel
// would only be noticed when the sleep ended.

export class WakeSignal {
  private pending: Promise<void> | undefined;
  private resolve: (() => void) | undefined;

  /** Resolves at the next notify(); every waiter shares one promise. */
  wait(): Promise<void> {
    this.pending ??= new Promise((resolve) => (this.resolve = resolve));
    return this.pending;
  }

  notify(): void {
    const resolve = this.resolve;
    this.pending = undefined;
    this.resolve = undefined;
    resolve?.();
  }
}

export async function sleepOrWake(
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>,
  ms: number,
  wake: WakeSignal,
): Promise<void> {
  const stop = new AbortController();
  await Promise.race([sleep(Math.max(0, ms), stop.signal), wake.wait()]);
  stop.abort();
}
