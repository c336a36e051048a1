// The refresher's queueing, on a real SQLite store and a real pacer; the register is a double
// that records what it was asked, so a test can see the order and the count of requests.
import { setTimeout as delay } from "node:timers/promises";
import { memoryLimitStore } from "@vics/server-kit/memory-rate-limiter";
import { silentLogger } from "@vics/server-kit/logger";
import { afterEach, describe, expect, it, vi } from "vitest";
import { openSqliteStore } from "../store/sqlite/sqlite-store.ts";
import type { Store } from "../store/store.ts";
import { createPacer } from "./pacer.ts";
import type { PaceSettings } from "./source-settings.ts";
import { createRefresher, type Refresher } from "./refresher.ts";
import { type LiveSource, type SourceAnswer, SourceError } from "./source.ts";

const NOW = new Date("2026-11-29T10:00:00.000Z");

let store: Store;
let refresher: Refresher;
let prefix = 0;

/** A register that knows every plate, answering after `delayMs`, and logs each request. */
function register(delayMs = 0) {
  const asked: string[] = [];
  const source: LiveSource = {
    name: "dvla-ves",
    baseUrl: "http://register.test",
    async lookUp(registration): Promise<SourceAnswer> {
      asked.push(registration);
      if (delayMs > 0) await delay(delayMs);
      return {
        found: true,
        registration,
        answeredAt: NOW,
        vehicle: {
          make: "FORD",
          color: "RED",
          year: 2020,
          firstRegistered: "2020-01-01",
        },
        tax: { sorn: false, dueDate: "2027-01-01" },
      };
    },
  };
  return { source, asked };
}

function start(
  source: LiveSource,
  pace: Partial<PaceSettings> = {},
  concurrency?: number,
) {
  store = openSqliteStore({ path: ":memory:" });
  // A source name's counts live in the one memory store: each test paces under its own name.
  prefix += 1;
  const settings = { perSecond: 1000, burst: 1000, perDay: 1000, ...pace };
  refresher = createRefresher({
    store,
    now: () => NOW,
    logger: silentLogger,
    ...(concurrency !== undefined && { concurrency }),
    sources: [
      {
        source,
        pacer: createPacer(
          memoryLimitStore,
          `dvla-ves-${prefix}` as "dvla-ves",
          settings,
        ),
        freshForMs: 86_400_000,
        kinds: ["tax", "mot", "vehicle"],
        perSecond: settings.perSecond,
      },
    ],
  });
}

afterEach(async () => {
  await refresher.close();
  await store.close();
});

const WAIT = { timeout: 2_000, interval: 10 };

const plates = (count: number, from = 0) =>
  Array.from(
    { length: count },
    (_, index) => `AB${String(from + index).padStart(2, "0")}CDE`,
  );

describe("the refresher", () => {
  it("queues stale facts without waiting, and stores each answer as it comes", async () => {
    const { source, asked } = register();
    start(source);
    const counts = await refresher.queue(plates(5));
    expect(counts).toEqual({ queued: 5, fresh: 0 });
    await vi.waitFor(
      async () => expect((await store.findVehicles(plates(5))).size).toBe(5),
      WAIT,
    );
    expect(asked).toHaveLength(5);
    expect(await refresher.queue(plates(5))).toEqual({ queued: 0, fresh: 5 });
  });

  it("stops at the day's quota and tells the admin how many vehicles wait for tomorrow", async () => {
    const { source, asked } = register();
    start(source, { perDay: 2 }, 1);
    await refresher.queue(plates(5));
    await vi.waitFor(async () => {
      const [state] = await store.sourceStates();
      expect(state?.lastError?.kind).toBe("quota");
    }, WAIT);
    expect(asked).toHaveLength(2);
    const [state] = await store.sourceStates();
    expect(state?.lastError?.message).toContain(
      "3 vehicles were not refreshed",
    );
    const report = await refresher.refresh(plates(1, 10), { budgetMs: 1000 });
    expect(report.unrefreshed.get(plates(1, 10)[0]!)?.reason).toBe("day-quota");
  });

  it("puts a single check ahead of a background refresh", async () => {
    const { source, asked } = register(20);
    start(source, {}, 1);
    await refresher.queue(plates(10));
    const [urgent] = plates(1, 50);
    await refresher.refresh([urgent!], { budgetMs: 5000 });
    // The one in flight when it came, then the single check: never behind the other nine.
    expect(asked.indexOf(urgent!)).toBeLessThanOrEqual(2);
    expect(asked.length).toBeLessThan(11);
  });

  it("never logs or keeps a plate an error's words carry", async () => {
    const [plate] = plates(1, 70);
    // As people write it: lower case, with a space.
    const written = `${plate!.slice(0, 4).toLowerCase()} ${plate!.slice(4)}`;
    const logged: unknown[] = [];
    const source: LiveSource = {
      ...register().source,
      lookUp: () =>
        Promise.reject(
          new SourceError(
            "dvla-ves",
            "malformed",
            `Cannot read the answer about ${written}.`,
          ),
        ),
    };
    start(source);
    const { sources } = refresher;
    await refresher.close();
    refresher = createRefresher({
      store,
      now: () => NOW,
      logger: {
        ...silentLogger,
        warn: (...line: unknown[]) => logged.push(line),
      },
      sources,
    });
    const report = await refresher.refresh([plate!], { budgetMs: 1000 });
    expect(report.unrefreshed.get(plate!)?.reason).toBe("malformed");
    const [state] = await store.sourceStates();
    // The plate as people write it, in any case, with a space: still taken out.
    expect(state?.lastError?.message).toBe(
      "Cannot read the answer about a registration.",
    );
    expect(JSON.stringify(logged).toLowerCase()).not.toContain(
      written.toLowerCase(),
    );
    expect(logged).toEqual([
      [
        "source: look-up failed",
        {
          source: "dvla-ves",
          kind: "malformed",
          message: "Cannot read the answer about a registration.",
        },
      ],
    ]);
  });

  it("spends no quota while it has nothing to ask", async () => {
    const { source } = register();
    start(source, { perDay: 3 });
    await refresher.queue(plates(1));
    await vi.waitFor(
      async () => expect((await store.findVehicles(plates(1))).size).toBe(1),
      WAIT,
    );
    await delay(50);
    const [paced] = refresher.sources;
    expect(await paced!.pacer.usedToday()).toEqual({ used: 1, quota: 3 });
  });
});
