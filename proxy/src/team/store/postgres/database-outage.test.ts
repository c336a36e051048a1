import { expect, it } from "vitest";
import { paths, ProblemSchema } from "@vics/shared";
import { sharedPostgres } from "@vics/server-kit/testing/postgres-server";
import { createTestProxy, fakeUpstream } from "../../../testing/index.ts";
import { openPostgresProxyStore } from "./postgres-proxy-store.ts";

const postgres = sharedPostgres();

it("a signed-in check while PostgreSQL restarts is a 503 with Retry-After and nothing upstream; the same proxy answers once it is back", async () => {
  const store = await openPostgresProxyStore({
    url: await postgres().createDatabase("outage"),
    auditRetentionDays: 30,
    applicationName: "vics-proxy-test",
  });
  const upstream = fakeUpstream();
  const { app } = createTestProxy({ fetch: upstream.fetch, store });
  const check = () => app.request(`/api${paths.insurance("AB12CDE")}`);
  try {
    expect((await check()).status).toBe(200);
    await postgres().stop();
    const down = await check();
    expect(down.status).toBe(503);
    expect(down.headers.get("Retry-After")).toBe("5");
    expect(ProblemSchema.parse(await down.json()).code).toBe(
      "SERVICE_UNAVAILABLE",
    );
    expect(upstream.requests).toHaveLength(1);
    await postgres().start();
    expect((await check()).status).toBe(200);
    expect(await store.searchAudit({ limit: 10 })).toHaveLength(2);
  } finally {
    await postgres().start();
    await store.close();
  }
}, 60_000);
