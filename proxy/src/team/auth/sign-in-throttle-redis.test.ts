import { redisLimitStore } from "@vics/server-kit/redis-rate-limiter";
import type { LimitStore } from "@vics/server-kit/rate-limiter";
import { sharedRedis } from "@vics/server-kit/testing/redis-replicas";
import { beforeEach } from "vitest";
import { signInThrottleContract } from "./sign-in-throttle.contract.ts";

// The same throttle counted in a real Redis (RATE_LIMIT_URL), as replicas share it.
const redis = sharedRedis();
let store: LimitStore;
beforeEach(async () => {
  store = redisLimitStore(await redis.client());
});

signInThrottleContract(() => store);
