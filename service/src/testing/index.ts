/**
 * `@vics/service/testing`: a real service app on a fresh in-memory database, for tests in
 * any workspace (the proxy wires its upstream fetch straight to `app.fetch`).
 */
import { setTimeout as delay } from "node:timers/promises";
import { type Plan, ukDate } from "@vics/shared";
import { registrationHasher } from "@vics/server-kit/registration-hash";
import type { Context } from "hono";
import type { AppDeps, LiveSources } from "../app-deps.ts";
import { createApp } from "../app.ts";
import { issueApiKey } from "../keys/api-key.ts";
import { type Logger, silentLogger } from "@vics/server-kit/logger";
import {
  createMemoryRateLimiter,
  memoryLimitStore,
} from "@vics/server-kit/memory-rate-limiter";
import { createPacer } from "../sources/pacer.ts";
import { createRefresher } from "../sources/refresher.ts";
import { SourceError } from "../sources/source.ts";
import { createWrongKeyBudget } from "../http/wrong-key-budget.ts";
import { SANDBOX_DELAY_MS } from "../sandbox.ts";
import { DEFAULT_FLEET_SEED } from "../seed/fleet.ts";
import { openSqliteStore } from "../store/sqlite/sqlite-store.ts";
import type { Store } from "../store/store.ts";

export interface TestService {
  app: { fetch(request: Request): Response | Promise<Response> };
  /** Issues a key on this service's database and returns the plain key. */
  createKey(plan: Plan, name?: string): Promise<string>;
  /** Closes the live sources' refresher, when `sources` made one, then the store. */
  close(): Promise<void> | void;
  /** The store behind the app, for the service's own tests (e.g. to revoke a key). */
  store: Store;
}

export interface TestServiceOptions {
  /** Default true, as for the embedded demo database. */
  sandbox?: boolean;
  /** Synthetic vehicles beside the reference ones; default 200, for speed. */
  fleetSize?: number;
  now?: () => Date;
  /** Delay of the slow sandbox registration (ER19SLO); default 3000 ms, as the contract says. */
  sandboxDelayMs?: number;
  logger?: Logger;
  /** Wrong keys per window from every address together; default as in production. */
  wrongKeysPerWindow?: number;
  /** The client address for the unauthenticated limit; default one fixed address. */
  clientAddress?: (c: Context) => string;
  /** Replaces the real wait of the slow sandbox registration. */
  sleep?: (ms: number) => Promise<void>;
  /** Wraps the store, e.g. to make it fail (failingStore). */
  wrapStore?: (store: Store) => Store;
  /** The live registers, made on the service's store (docs/sources.md); none by default. */
  sources?: (store: Store) => LiveSources;
}

/** A store whose every method rejects: the service's own 500, as `wrapStore`. */
export const failingStore = (store: Store): Store =>
  new Proxy(store, {
    get: (target, property) =>
      typeof target[property as keyof Store] === "function"
        ? () => Promise.reject(new Error("the test's failing store"))
        : target[property as keyof Store],
  });

export const TEST_CLIENT_ADDRESS = "192.0.2.1";
/** The log-hash key of test services, so a test can work out what a plate logs as. */
export const TEST_LOG_HASH_KEY = "the test services' log hash key";

/** The app's dependencies as tests want them: quiet, one client address, real memory limiter. */
export function testAppDeps(
  store: Store,
  options: TestServiceOptions = {},
): AppDeps {
  const wrapped = options.wrapStore ? options.wrapStore(store) : store;
  return {
    store: wrapped,
    ...(options.sources && { sources: options.sources(wrapped) }),
    rateLimiter: createMemoryRateLimiter(),
    wrongKeyBudget: createWrongKeyBudget(options.wrongKeysPerWindow),
    now: options.now ?? (() => new Date()),
    sandbox: options.sandbox ?? true,
    sandboxDelayMs: options.sandboxDelayMs ?? SANDBOX_DELAY_MS,
    sleep: options.sleep ?? ((ms) => delay(ms)),
    logger: options.logger ?? silentLogger,
    hashRegistration: registrationHasher(TEST_LOG_HASH_KEY),
    clientAddress: options.clientAddress ?? (() => TEST_CLIENT_ADDRESS),
  };
}

export async function createTestService(
  options: TestServiceOptions = {},
): Promise<TestService> {
  const now = options.now ?? (() => new Date());
  const store = openSqliteStore({
    path: ":memory:",
    seed: {
      fleetSize: options.fleetSize ?? 200,
      seed: DEFAULT_FLEET_SEED,
      today: ukDate(now()),
    },
  });
  const deps = testAppDeps(store, { ...options, now });
  let keyCount = 0;
  return {
    app: createApp(deps),
    store,
    async createKey(plan, name) {
      const issued = await issueApiKey(
        store,
        plan,
        name ?? `test-${plan}-${++keyCount}`,
        now(),
      );
      return issued.key;
    },
    // The refresher first: its queues may still be writing facts to the store.
    async close() {
      await deps.sources?.refresher.close();
      await store.close();
    },
  };
}

/**
 * `sources` for a test service whose one live register (DVLA VES) is down: a vehicle it never
 * saw is then a 503 with Retry-After (docs/sources.md).
 */
export const registerDown =
  (waitMs = 1000) =>
  (store: Store): LiveSources => ({
    refresher: createRefresher({
      store,
      now: () => new Date(),
      logger: silentLogger,
      sources: [
        {
          source: {
            name: "dvla-ves",
            baseUrl: "http://register.test",
            lookUp: () =>
              Promise.reject(
                new SourceError(
                  "dvla-ves",
                  "unavailable",
                  "The test's register is down.",
                ),
              ),
          },
          pacer: createPacer(memoryLimitStore, "dvla-ves", {
            perSecond: 1000,
            burst: 1000,
            perDay: 1_000_000,
          }),
          freshForMs: 86_400_000,
          kinds: ["tax", "mot", "vehicle"],
          perSecond: 1000,
        },
      ],
    }),
    waitMs,
    bulkWaitMs: waitMs,
  });
