import { createHash, randomBytes } from "node:crypto";
import { addressKey } from "@vics/server-kit/address-key";
import type { Logger } from "@vics/server-kit/logger";
import { silentLogger } from "@vics/server-kit/logger";
import { memoryLimitStore } from "@vics/server-kit/memory-rate-limiter";
import {
  decide,
  type LimitStore,
  type WindowLimiter,
} from "@vics/server-kit/rate-limiter";
import {
  DEFAULT_HASH_CAPS,
  HashesInFlight,
  type HashCaps,
} from "./passwords-in-flight.ts";

export interface ThrottleSettings {
  /** Tries for one account in the window, in each lane (see SignInThrottle). */
  perAccount: number;
  /** Tries from one client address (an IPv6 /64) in the window. */
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

/** How long an address or a browser that signed in stays its account's own: 14 days. */
export const TRUST_SECONDS = 14 * 24 * 60 * 60;

/** One counted try, allowed: its hash slot, left once the password is checked. */
export interface Attempt {
  release(): void;
  /** The password was right: the try is given back, and the lane's failures forgotten. */
  succeeded(): Promise<void>;
}

export type ThrottleVerdict =
  | { ok: true; attempt: Attempt }
  /** throttled: too many tries; busy: too many hashes running now (retry in a second). */
  | { ok: false; reason: "throttled" | "busy"; retryAfterSeconds: number };

interface Lane {
  limiter: WindowLimiter;
  key: string;
  /** A right password: a stranger's failures stay counted; the owner's own are forgotten. */
  succeeded(): Promise<unknown>;
}

/**
 * Sign-in tries, counted before the password is hashed (rate-limiter-flexible's consume, one
 * atomic step in memory and in Redis alike), and given back when it was right. Each try counts
 * against its address (an IPv6 /64 as one) and one lane of its account, OWASP's way to stop
 * guessing without letting a stranger lock the owner out (docs/decisions/048-sign-in-lanes.md):
 * a browser that signed in as the account (its device cookie) has a lane of its own, so does an
 * address it signed in from, and every other try shares the account's lane. Unknown emails
 * count like known ones, so a refusal says nothing about which accounts exist. The hashes in
 * flight are capped (passwords-in-flight.ts). `store`: this process's memory, or Redis when
 * replicas share the counts (RATE_LIMIT_URL), where a Redis that does not answer makes every
 * call throw DependencyUnavailableError: a 503, never an unthrottled try.
 */
export class SignInThrottle {
  private readonly perAddress: WindowLimiter;
  private readonly perAccount: WindowLimiter;
  private readonly perOwnAddress: WindowLimiter;
  private readonly perDevice: WindowLimiter;
  private readonly perPasswordChange: WindowLimiter;
  private readonly trusted: WindowLimiter;
  /** One warn line a minute per address, in this process. */
  private readonly warned = memoryLimitStore.window({
    points: 1,
    duration: 60,
    keyPrefix: "sign-in-warned",
  });
  private readonly hashes: HashesInFlight;
  private readonly logger: Logger;
  private readonly onThrottled: (() => void) | undefined;

  constructor(
    settings: ThrottleSettings = DEFAULT_THROTTLE,
    store: LimitStore = memoryLimitStore,
    options: {
      logger?: Logger;
      hashes?: HashCaps;
      /** Told of each try refused for too many (not for a busy moment): the metrics. */
      onThrottled?: () => void;
    } = {},
  ) {
    const window = (points: number, keyPrefix: string, duration?: number) =>
      store.window({
        points,
        duration: duration ?? settings.windowSeconds,
        keyPrefix,
      });
    this.perAddress = window(settings.perAddress, "sign-in-address");
    this.perAccount = window(settings.perAccount, "sign-in-account");
    this.perOwnAddress = window(settings.perAccount, "sign-in-own-address");
    this.perDevice = window(settings.perAccount, "sign-in-device");
    this.perPasswordChange = window(settings.perAccount, "password-change");
    this.trusted = window(1, "sign-in-trusted", TRUST_SECONDS);
    this.hashes = new HashesInFlight(options.hashes ?? DEFAULT_HASH_CAPS);
    this.logger = options.logger ?? silentLogger;
    this.onThrottled = options.onThrottled;
  }

  /**
   * Counts a sign-in try and takes a hash slot, before the password is checked. `device`: the
   * browser's device cookie, if it has one.
   */
  begin(attempt: {
    email: string;
    address: string;
    device?: string;
  }): Promise<ThrottleVerdict> {
    const account = accountKey(attempt.email);
    return this.count(attempt.address, (client) =>
      this.laneOf(account, client, attempt.device),
    );
  }

  /** Counts a signed-in user's try of their current password, as a sign-in is counted. */
  beginPasswordChange(
    userId: string,
    address: string,
  ): Promise<ThrottleVerdict> {
    const limiter = this.perPasswordChange;
    return this.count(address, async () => ({
      limiter,
      key: userId,
      succeeded: () => limiter.delete(userId),
    }));
  }

  /**
   * After a sign-in: the address it came from is the account's own for TRUST_SECONDS, and so
   * is the browser, by the device token returned (for its cookie).
   */
  async trust(email: string, address: string): Promise<string> {
    const account = accountKey(email);
    const device = randomBytes(32).toString("base64url");
    const marks = [
      ownAddressKey(account, addressKey(address)),
      deviceKey(account, device),
    ];
    // Marked afresh, so trust runs TRUST_SECONDS from the latest sign-in.
    for (const mark of marks) {
      await this.trusted.delete(mark);
      await this.trusted.penalty(mark, 1);
    }
    return device;
  }

  private async laneOf(
    account: string,
    client: string,
    device: string | undefined,
  ): Promise<Lane> {
    const own = (limiter: WindowLimiter, key: string): Lane => ({
      limiter,
      key,
      succeeded: () => limiter.delete(key),
    });
    const byDevice = device ? deviceKey(account, device) : undefined;
    const byAddress = ownAddressKey(account, client);
    const [deviceMark, addressMark] = await Promise.all([
      byDevice ? this.trusted.get(byDevice) : null,
      this.trusted.get(byAddress),
    ]);
    if (byDevice && deviceMark) return own(this.perDevice, byDevice);
    if (addressMark) return own(this.perOwnAddress, byAddress);
    const limiter = this.perAccount;
    return { limiter, key: account, succeeded: () => limiter.reward(account) };
  }

  private async count(
    address: string,
    laneOf: (client: string) => Promise<Lane>,
  ): Promise<ThrottleVerdict> {
    const client = addressKey(address);
    // Taken before anything is awaited, so a burst cannot pass the caps in the meantime.
    const release = this.hashes.enter(client);
    if (!release) return this.refuse(client, "busy", 1);
    try {
      const lane = await laneOf(client);
      const decisions = await Promise.all([
        decide(lane.limiter, lane.key),
        decide(this.perAddress, client),
      ]);
      const refused = decisions.filter((decision) => !decision.allowed);
      if (refused.length > 0) {
        release();
        const waitMs = Math.max(
          ...refused.map((decision) => decision.result.msBeforeNext),
        );
        return this.refuse(
          client,
          "throttled",
          Math.max(1, Math.ceil(waitMs / 1000)),
        );
      }
      const perAddress = this.perAddress;
      return {
        ok: true,
        attempt: {
          release,
          succeeded: async () => {
            await Promise.all([lane.succeeded(), perAddress.reward(client)]);
          },
        },
      };
    } catch (error) {
      release();
      throw error;
    }
  }

  private async refuse(
    client: string,
    reason: "throttled" | "busy",
    retryAfterSeconds: number,
  ): Promise<ThrottleVerdict> {
    if (reason === "throttled") this.onThrottled?.();
    const { allowed } = await decide(this.warned, client);
    if (allowed)
      this.logger.warn(
        "sign-in tries refused from this address; further refusals are not logged for a minute",
        { address: client, reason, retryAfterSeconds },
      );
    return { ok: false, reason, retryAfterSeconds };
  }
}

const accountKey = (email: string) => email.trim().toLowerCase();
const ownAddressKey = (account: string, client: string) =>
  `${account} @${client}`;
/** The token's hash: a copy of the counts (Redis) holds no usable cookie. */
const deviceKey = (account: string, device: string) =>
  `${account} #${createHash("sha256").update(device).digest("base64url")}`;

/** "Try again in 14 minutes", from seconds. */
export function waitWords(seconds: number): string {
  if (seconds < 60) return `${seconds} second${seconds === 1 ? "" : "s"}`;
  const minutes = Math.ceil(seconds / 60);
  return `${minutes} minute${minutes === 1 ? "" : "s"}`;
}
