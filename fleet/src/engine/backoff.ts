// Exponential backoff with full jitter: retries from many tabs (or many chunks) spread out
// instead of hitting a struggling service together.

/** The wait before retry number `tries` (1 after the first failure), in ms. */
export function backoffDelay(
  tries: number,
  tuning: { baseDelayMs: number; maxDelayMs: number; random: () => number },
): number {
  const ceiling = Math.min(
    tuning.maxDelayMs,
    tuning.baseDelayMs * 2 ** Math.max(0, tries - 1),
  );
  return Math.floor(tuning.random() * ceiling);
}

/** setTimeout as a promise that ends early, without rejecting, when `signal` aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, Math.max(0, ms));
    signal?.addEventListener("abort", done, { once: true });
  });
}
