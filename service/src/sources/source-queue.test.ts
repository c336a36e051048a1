// The register queue's rules (decision 059), on a real SQLite store and a real pacer; the
// register is a double whose answers a test scripts, and which logs what it was asked.
import { setTimeout as delay } from "node:timers/promises";
import { memoryLimitStore } from "@vics/server-kit/memory-rate-limiter";
import { silentLogger } from "@vics/server-kit/logger";
import { afterEach, describe, expect, it, vi } from "vitest";
import { StoreBusyError } from "../store/fetched-facts.ts";
import { openSqliteStore } from "../store/sqlite/sqlite-store.ts";
import type { Store } from "../store/store.ts";
import { createPacer } from "./pacer.ts";
import type { PaceSettings } from "./source-settings.ts";
import {
  createRefresher,
  type Refresher,
  type RefresherDeps,
} from "./refresher.ts";
import { type LiveSource, type SourceAnswer, SourceError } from "./source.ts";

const NOW = new Date("2026-11-29T10:00:00.000Z");
const DAY = 86_400_000;

let store: Store;
let refresher: Refresher;
let pacerName = 0;

type Script = (registration: string, asked: number) => Promise<SourceAnswer>;

const found = (registration: string): SourceAnswer => ({
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
});

/** A register answering as `script` says; `asked` logs each registration asked, in order. */
function register(script: Script = async (r) => found(r)) {
  const asked: string[] = [];
  const source: LiveSource = {
    name: "dvla-ves",
    baseUrl: "http://register.test",
    lookUp: (registration) => {
      asked.push(registration);
      return script(
        registration,
        asked.filter((one) => one === registration).length,
      );
    },
  };
  return { source, asked };
}

function start(
  source: LiveSource,
  options: {
    pace?: Partial<PaceSettings>;
    deps?: Partial<RefresherDeps>;
    wrap?: (store: Store) => Store;
  } = {},
) {
  store = openSqliteStore({ path: ":memory:" });
  pacerName += 1;
  const pace = { perSecond: 1000, burst: 1000, perDay: 1000, ...options.pace };
  refresher = createRefresher({
    store: options.wrap ? options.wrap(store) : store,
    now: () => NOW,
    logger: silentLogger,
    sources: [
      {
        source,
        // A name of its own a test: the memory store's counts outlive a test.
        pacer: createPacer(
          memoryLimitStore,
          `dvla-ves-q${pacerName}` as "dvla-ves",
          pace,
        ),
        freshForMs: DAY,
        kinds: ["tax", "mot", "vehicle"],
        perSecond: pace.perSecond,
      },
    ],
    ...options.deps,
  });
}

afterEach(async () => {
  await refresher.close();
  await store.close();
});

/** vi.waitFor's polling, long enough for the pacer's first back-off (1 s). */
const WAIT = { timeout: 3_000, interval: 10 };

const plates = (count: number, from = 0) =>
  Array.from(
    { length: count },
    (_, index) => `QU${String(from + index).padStart(2, "0")}ABC`,
  );

const held = async (registrations: readonly string[]) =>
  (await store.findVehicles(registrations)).size;

describe("a register's queue", () => {
  it("puts a bulk check ahead of the watched fleets' refresh, and a single check ahead of both", async () => {
    const { source, asked } = register(async (registration) => {
      await delay(15);
      return found(registration);
    });
    start(source, { deps: { concurrency: 1 } });
    await refresher.queue(plates(10));
    const bulk = refresher.refresh(plates(2, 40), {
      budgetMs: 5000,
      priority: "bulk",
    });
    const [single] = plates(1, 60);
    await refresher.refresh([single!], { budgetMs: 5000 });
    await bulk;
    await vi.waitFor(() => expect(asked).toHaveLength(13), WAIT);
    const at = (registration: string) => asked.indexOf(registration);
    expect(at(single!)).toBeLessThanOrEqual(1);
    expect(Math.max(...plates(2, 40).map(at))).toBeLessThan(
      at(plates(1, 9)[0]!),
    );
  });

  it("tries a register that failed again, behind what is queued, and stores its answer", async () => {
    const { source, asked } = register(async (registration, times) => {
      if (times === 1)
        throw new SourceError("dvla-ves", "unavailable", "It did not answer.");
      return found(registration);
    });
    start(source);
    const [plate] = plates(1);
    const report = await refresher.refresh([plate!], { budgetMs: 2000 });
    expect(report.unrefreshed.get(plate!)?.reason).toBe("unavailable");
    // The pacer's back-off (1 s, less its jitter) spaces the try.
    await vi.waitFor(async () => expect(await held([plate!])).toBe(1), WAIT);
    expect(asked).toEqual([plate, plate]);
  });

  it("settles a job whose answer the database would not take, and goes on with the next", async () => {
    const { source, asked } = register();
    let failing = true;
    start(source, {
      deps: { concurrency: 1 },
      wrap: (inner) => ({
        ...inner,
        recordFetched: (batch) =>
          failing
            ? Promise.reject(new Error("disk full"))
            : inner.recordFetched(batch),
      }),
    });
    const [first, second] = plates(2);
    const report = await refresher.refresh([first!], { budgetMs: 2000 });
    expect(report.unrefreshed.get(first!)?.reason).toBe("unavailable");
    failing = false;
    await refresher.refresh([second!], { budgetMs: 2000 });
    expect(await held([second!])).toBe(1);
    expect(asked).toContain(second);
  });

  it("keeps an answer while another process holds the database, and stores it once it is free", async () => {
    const { source, asked } = register();
    let busy = true;
    start(source, {
      wrap: (inner) => ({
        ...inner,
        recordFetched: (batch) =>
          busy
            ? Promise.reject(new StoreBusyError({ cause: "test" }))
            : inner.recordFetched(batch),
      }),
    });
    const [plate] = plates(1);
    const report = await refresher.refresh([plate!], { budgetMs: 2000 });
    expect(report.unrefreshed.get(plate!)?.reason).toBe("waiting");
    busy = false;
    await vi.waitFor(async () => expect(await held([plate!])).toBe(1), WAIT);
    expect(asked).toEqual([plate]);
  });

  it("once the day's quota is spent, answers at once and counts every vehicle left for the admin", async () => {
    const { source, asked } = register();
    start(source, { pace: { perDay: 1 }, deps: { concurrency: 1 } });
    await refresher.queue(plates(4));
    await vi.waitFor(async () => {
      const [state] = await store.sourceStates();
      expect(state?.lastError?.kind).toBe("quota");
    }, WAIT);
    const [later] = plates(1, 20);
    const report = await refresher.refresh([later!], { budgetMs: 2000 });
    expect(report.unrefreshed.get(later!)).toMatchObject({
      reason: "day-quota",
      retryAfterMs: expect.any(Number),
    });
    expect(asked).toHaveLength(1);
    const [state] = await store.sourceStates();
    expect(state?.lastError?.message).toMatch(
      /^Today's quota of 1 requests is spent: 3 vehicles were not refreshed today/,
    );
  });

  it("does not ask again about a plate the register refused, and does not call the register in error", async () => {
    const { source, asked } = register(async () => {
      throw new SourceError("dvla-ves", "refused", "Bad request (400).");
    });
    start(source);
    const [plate] = plates(1);
    for (let time = 0; time < 3; time += 1)
      expect(
        (await refresher.refresh([plate!], { budgetMs: 2000 })).unrefreshed
          .size,
      ).toBe(0);
    expect(asked).toEqual([plate]);
    const inError = (await store.sourceStates()).filter(
      (state) => state.lastError !== null,
    );
    expect(inError).toEqual([]);
  });

  it("keeps at most its cap of jobs, and says the rest are waiting", async () => {
    // The register answers once the test opens it: the first job stays in flight till then.
    let open!: () => void;
    const opened = new Promise<void>((resolve) => (open = resolve));
    const { source, asked } = register(async (registration) => {
      await opened;
      return found(registration);
    });
    start(source, { deps: { concurrency: 1, mostQueued: 3 } });
    const report = await refresher.refresh(plates(6), {
      budgetMs: 0,
      priority: "bulk",
    });
    expect(report.unrefreshed.size).toBe(6);
    expect([...report.unrefreshed.values()].map((why) => why.reason)).toEqual(
      Array(6).fill("waiting"),
    );
    expect(await refresher.queue(plates(6, 10)).then(() => "queued")).toBe(
      "queued",
    );
    open();
    // The one in flight and the cap's three were kept; the rest were never asked.
    const kept = plates(4);
    await vi.waitFor(async () => expect(await held(kept)).toBe(4), WAIT);
    expect(asked).toEqual(kept);
  });

  it("reads a vehicle's marks once a minute, not at every check, while its facts are fresh", async () => {
    const { source, asked } = register();
    let reads = 0;
    start(source, {
      wrap: (inner) => ({
        ...inner,
        freshness: (registrations) => {
          reads += 1;
          return inner.freshness(registrations);
        },
      }),
    });
    const [plate] = plates(1);
    const first = await refresher.refresh([plate!], { budgetMs: 2000 });
    // One read before asking; the answer's marks are the ones this replica just stored.
    expect(reads).toBe(1);
    const mark = { source: "dvla-ves", fetchedAt: NOW.toISOString() };
    expect(first.freshness.get(plate!)).toEqual({
      tax: mark,
      mot: mark,
      vehicle: mark,
    });
    const afterFirst = reads;
    for (let time = 0; time < 5; time += 1)
      await refresher.refresh([plate!], { budgetMs: 2000 });
    expect(reads).toBe(afterFirst);
    expect(asked).toEqual([plate]);
    // A single check's fast way gives the same marks, with nothing to wait for.
    expect(refresher.freshNow(plate!)).toEqual({
      freshness: new Map([
        [plate, expect.objectContaining({ tax: expect.anything() })],
      ]),
      unrefreshed: new Map(),
    });
    expect(refresher.freshNow(plates(1, 90)[0]!)).toBeUndefined();
  });

  it("queues the facts that will be stale by the sweep, not only those stale now", async () => {
    const { source } = register();
    start(source);
    const [plate] = plates(1);
    await refresher.refresh([plate!], { budgetMs: 2000 });
    expect(await refresher.queue([plate!])).toEqual({ queued: 0, fresh: 1 });
    expect(
      await refresher.queue([plate!], { until: new Date(NOW.getTime() + DAY) }),
    ).toEqual({ queued: 1, fresh: 0 });
  });

  it("leaves plates no register answered for alone when the caller may not bring new ones", async () => {
    const { source, asked } = register();
    start(source);
    const report = await refresher.refresh(plates(3), {
      budgetMs: 2000,
      priority: "bulk",
      newVehicles: false,
    });
    expect(report.unrefreshed.size).toBe(0);
    expect(asked).toEqual([]);
  });
});
