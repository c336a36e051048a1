// The refresh ahead of the sweep against the real service (its app, no port), through the
// proxy's upstream send: every watched vehicle once, in slices of a bulk check's size, with the
// re-checks' key; a service with no register on is asked once; a key off the internal plan and
// a service that cannot be reached fail in words.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  createTestService,
  registerDown,
  type TestService,
} from "@vics/service/testing";
import { BULK_MAX_REGISTRATIONS } from "@vics/shared";
import type { ProxyStore } from "../store/proxy-store.ts";
import { openSqliteProxyStore } from "../store/sqlite/sqlite-proxy-store.ts";
import {
  refreshWatchedVehicles,
  registerRefreshCall,
} from "./register-refresh.ts";
import {
  plates,
  refreshThrough,
  vehicles,
  type Sent,
} from "../../testing/register-refresh.ts";

const NOW = Date.now();
/** The coming sweep the refresh is ahead of. */
const UNTIL = Date.parse("2026-11-20T06:00:00Z");
const ann = { email: "ann@example.org", at: NOW };

let service: TestService;
let store: ProxyStore;
let sent: Sent[];

async function startService(registerOn: boolean) {
  service = await createTestService({
    sandbox: false,
    fleetSize: 20,
    ...(registerOn && { sources: registerDown() }),
  });
}

beforeEach(() => {
  store = openSqliteProxyStore({ path: ":memory:", auditRetentionDays: 30 });
  sent = [];
});
afterEach(async () => {
  await store.close();
  await service?.close();
});

describe("the refresh of the watched vehicles' register facts", () => {
  it("sends each watched vehicle once, in slices of a bulk check's size, with the re-checks' key", async () => {
    await startService(true);
    const key = await service.createKey("internal", "re-checks");
    const all = plates(2_500);
    // 300 of them in both fleets: asked about once.
    await store.createFleet(
      "Vans",
      { columns: [], vehicles: vehicles(all.slice(0, 1_500)) },
      ann,
    );
    await store.createFleet(
      "Cars",
      { columns: [], vehicles: vehicles(all.slice(1_200)) },
      ann,
    );

    const report = await refreshWatchedVehicles({
      store,
      refresh: refreshThrough(service, key, sent),
      until: UNTIL,
    });

    expect(sent.map((s) => s.registrations.length)).toEqual([
      BULK_MAX_REGISTRATIONS,
      BULK_MAX_REGISTRATIONS,
      500,
    ]);
    expect(sent.every((s) => s.key === key)).toBe(true);
    // Each slice under an id of its own, for the service's log lines about it.
    const ids = sent.map((s) => s.requestId);
    expect(ids.every((id) => id !== null && /^[\w-]{8,}$/.test(id))).toBe(true);
    expect(new Set(ids).size).toBe(sent.length);
    // Every slice asks for the facts that will be stale by the sweep, not only those stale now.
    expect(sent.map((s) => s.until)).toEqual([
      "2026-11-20T06:00:00.000Z",
      "2026-11-20T06:00:00.000Z",
      "2026-11-20T06:00:00.000Z",
    ]);
    const asked = sent.flatMap((s) => s.registrations);
    expect(asked).toHaveLength(all.length);
    expect(new Set(asked)).toEqual(new Set(all));
    // One register on, and none of them fetched yet: each is one request queued.
    expect(report).toEqual({
      on: true,
      sent: 2_500,
      queued: 2_500,
      fresh: 0,
      invalid: 0,
    });
  });

  it("stops after the first slice when the service says no register is on", async () => {
    await startService(false);
    const key = await service.createKey("internal", "re-checks");
    await store.createFleet(
      "Vans",
      { columns: [], vehicles: vehicles(plates(2_500)) },
      ann,
    );
    const report = await refreshWatchedVehicles({
      store,
      refresh: refreshThrough(service, key, sent),
      until: UNTIL,
    });
    expect(sent).toHaveLength(1);
    expect(report).toMatchObject({ on: false, sent: BULK_MAX_REGISTRATIONS });
  });

  it("sends nothing when no vehicle is watched", async () => {
    await startService(true);
    const key = await service.createKey("internal", "re-checks");
    const report = await refreshWatchedVehicles({
      store,
      refresh: refreshThrough(service, key, sent),
      until: UNTIL,
    });
    expect(sent).toEqual([]);
    expect(report.sent).toBe(0);
  });

  it("stops between slices when the proxy stops, saying how far it got", async () => {
    await startService(true);
    const key = await service.createKey("internal", "re-checks");
    await store.createFleet(
      "Vans",
      { columns: [], vehicles: vehicles(plates(2_500)) },
      ann,
    );
    const stopping = new AbortController();
    const through = refreshThrough(service, key, sent);
    await expect(
      refreshWatchedVehicles(
        {
          store,
          refresh: async (slice, until) => {
            const answer = await through(slice, until);
            stopping.abort();
            return answer;
          },
          until: UNTIL,
        },
        stopping.signal,
      ),
    ).rejects.toThrow(
      "the proxy stopped after 1,000 of 2,500 vehicles were sent",
    );
    expect(sent).toHaveLength(1);
  });

  it("fails in the service's words for a key off the internal plan", async () => {
    await startService(true);
    const key = await service.createKey("standard", "not internal");
    await store.createFleet(
      "Vans",
      { columns: [], vehicles: vehicles(plates(3)) },
      ann,
    );
    const failure = await refreshWatchedVehicles({
      store,
      refresh: refreshThrough(service, key, sent),
      until: UNTIL,
    }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(Error);
    expect((failure as Error).message).toMatch(/answered 403: .*internal plan/);
    // It names the slice's request id, as the service's log lines about it do.
    expect(sent).toHaveLength(1);
    expect((failure as Error).message).toContain(
      `(request id ${sent[0]!.requestId})`,
    );
  });

  it("fails in words when the service cannot be reached", async () => {
    await startService(true);
    await store.createFleet(
      "Vans",
      { columns: [], vehicles: vehicles(plates(3)) },
      ann,
    );
    const refresh = registerRefreshCall({
      send: () => Promise.reject(new Error("connect ECONNREFUSED")),
      upstreamUrl: "http://service.internal",
      apiKey: "any",
      timeoutMs: 5_000,
    });
    await expect(
      refreshWatchedVehicles({ store, refresh, until: UNTIL }),
    ).rejects.toThrow(/could not be reached \(connect ECONNREFUSED\)/);
  });
});
