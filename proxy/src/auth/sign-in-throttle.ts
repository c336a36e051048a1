import type { RateLimiterRes } from "rate-limiter-flexible";
import { memoryLimitStore } from "@vics/shared/server/memory-rate-limiter";
import type {
  LimitStore,
  WindowLimiter,
} from "@vics/shared/server/rate-limiter";

export interface ThrottleSettings {
  /** Failed sign-ins for one email (known or not) in the window. */
  perAccount: number;
  /** Failed sign-ins from one client address in the window. */
  perAddress: number;
  windowSeconds: number;
}

/**
 * Ten wrong passwords for one account in 15 minutes is not a typo. An office shares one
 * address, so the address allows more.
 */
export const DEFAULT_THROTTLE: ThrottleSettings = {
  perAccount: 10,
  perAddress: 100,
  windowSeconds: 15 * 60,
};

export type ThrottleVerdict =
  { ok: true } | { ok: false; retryAfterSeconds: number };

/**
 * Failed sign-ins counted per account and per address (rate-limiter-flexible), in `store`:
 * this process's memory, or Redis when replicas share the counts (RATE_LIMIT_URL), where a
 * Redis that does not answer makes every call throw DependencyUnavailableError: the sign-in
 * is a 503, never an unthrottled try. Unknown emails count like known ones, so a refusal says
 * nothing about which accounts exist.
 */
export class SignInThrottle {
  private readonly perAccount: WindowLimiter;
  private readonly perAddress: WindowLimiter;

  constructor(
    settings: ThrottleSettings = DEFAULT_THROTTLE,
    store: LimitStore = memoryLimitStore,
  ) {
    this.perAccount = store.window({
      points: settings.perAccount,
      duration: settings.windowSeconds,
      keyPrefix: "sign-in-account",
    });
    this.perAddress = store.window({
      points: settings.perAddress,
      duration: settings.windowSeconds,
      keyPrefix: "sign-in-address",
    });
  }

  /** Whether a sign-in may be tried now; asked before the password is checked. */
  async check(email: string, address: string): Promise<ThrottleVerdict> {
    const [account, client] = await Promise.all([
      this.perAccount.get(accountKey(email)),
      this.perAddress.get(address),
    ]);
    const waits = [
      blockedFor(account, this.perAccount.points),
      blockedFor(client, this.perAddress.points),
    ];
    const wait = Math.max(...waits);
    return wait > 0 ? { ok: false, retryAfterSeconds: wait } : { ok: true };
  }

  async failed(email: string, address: string): Promise<void> {
    await Promise.all([
      this.perAccount.penalty(accountKey(email), 1),
      this.perAddress.penalty(address, 1),
    ]);
  }

  /** A right password clears the account's count (not the address's). */
  async succeeded(email: string): Promise<void> {
    await this.perAccount.delete(accountKey(email));
  }
}

const accountKey = (email: string) => email.trim().toLowerCase();

function blockedFor(result: RateLimiterRes | null, points: number): number {
  if (!result || result.consumedPoints < points) return 0;
  return Math.max(1, Math.ceil(result.msBeforeNext / 1000));
}

/** "Try again in 14 minutes", from seconds. */
export function waitWords(seconds: number): string {
  if (seconds < 60) return `${seconds} second${seconds === 1 ? "" : "s"}`;
  const minutes = Math.ceil(seconds / 60);
  return `${minutes} minute${minutes === 1 ? "" : "s"}`;
}
