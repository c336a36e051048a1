/**
 * `@vics/server-kit/testing/redis-outage`: for tests that take Redis away (redis-server.ts) and
 * bring it back. No test asserts how fast: only that a call settles at all, and that the
 * limits answer again by themselves.
 */

/** Far longer than any limiter call may take (REDIS_DEADLINE_MS): only a hang reaches it. */
export const HANG_MS = 15_000;

/** How `promise` settled; throws if it has not within `ms`, which a hang would do. */
export async function settled<T>(
  promise: Promise<T>,
  ms = HANG_MS,
): Promise<{ ok: true; value: T } | { ok: false; error: unknown }> {
  let timer: NodeJS.Timeout | undefined;
  const hung = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`did not settle within ${ms} ms`)),
      ms,
    );
  });
  try {
    return await Promise.race([
      promise.then(
        (value) => ({ ok: true as const, value }),
        (error: unknown) => ({ ok: false as const, error }),
      ),
      hung,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/** Resolves once `ping` does (the client reconnected by itself); throws after `ms`. */
export async function untilAnswering(
  ping: () => Promise<unknown>,
  ms = HANG_MS,
): Promise<void> {
  const deadline = Date.now() + ms;
  for (;;) {
    try {
      await ping();
      return;
    } catch (error) {
      if (Date.now() > deadline)
        throw new Error(`still not answering after ${ms} ms`, {
          cause: error,
        });
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
