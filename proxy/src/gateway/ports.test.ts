// The gateway asks "may they" only through the team's port (decision 064): the roles it asks
// are the ones its routes declare, and a route the port refuses never reaches the forward.
import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { ADMIN_DATA_PATHS } from "@vics/shared/data-admin";
import { PROXY_PREFIX, type Role } from "@vics/shared";
import { registerDataRoutes } from "./data/data-routes.ts";
import { registerApiRoutes } from "./forward/api-routes.ts";
import type { Forward } from "./forward/forward.ts";
import { FORWARDED_OPERATIONS } from "./forward/forwarded-operations.ts";
import { idempotentReplay } from "./forward/replay/idempotent-replay.ts";
import { ReplayCache } from "./forward/replay/replay-cache.ts";
import type { AppEnv } from "./http/app-env.ts";
import type { TeamPorts } from "./ports.ts";

/** The gateway's routes behind a port that refuses every role it is asked for. */
function refusingGateway() {
  const asked: Role[] = [];
  let forwarded = 0;
  const team: TeamPorts = {
    requireRole: (role) => {
      asked.push(role);
      return async (c) => c.text(`needs ${role}`, 403);
    },
  };
  const forward: Forward = async () => {
    forwarded += 1;
    return { response: new Response("{}"), answer: undefined };
  };
  const app = new Hono<AppEnv>();
  registerDataRoutes(app, forward, team);
  const replay = idempotentReplay(
    new ReplayCache({ maxBytes: 1024, ttlMs: 1000 }),
  );
  registerApiRoutes(app, forward, replay, FORWARDED_OPERATIONS, team);
  return { app, asked, forwarded: () => forwarded };
}

describe("the gateway's role port", () => {
  it("is asked for the data pages' admin and each bulk check's fleet role, never for staff", () => {
    const { asked } = refusingGateway();
    const fleetRoutes = FORWARDED_OPERATIONS.filter((o) => o.role === "fleet");
    expect(fleetRoutes.length).toBeGreaterThan(0);
    expect(asked.filter((role) => role === "fleet")).toHaveLength(
      fleetRoutes.length,
    );
    expect(asked).toContain("admin");
    expect(asked).not.toContain("staff");
  });

  it("answers with the port's refusal, and nothing is forwarded", async () => {
    const { app, forwarded } = refusingGateway();
    const data = await app.request(ADMIN_DATA_PATHS.sources);
    expect(data.status).toBe(403);
    expect(await data.text()).toBe("needs admin");
    const bulk = FORWARDED_OPERATIONS.find((o) => o.role === "fleet")!;
    const check = await app.request(PROXY_PREFIX + bulk.route, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ registrations: ["AB12CDE"] }),
    });
    expect(check.status).toBe(403);
    expect(await check.text()).toBe("needs fleet");
    expect(forwarded()).toBe(0);
  });
});
