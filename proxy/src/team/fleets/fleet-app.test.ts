// The saved fleets through the whole proxy: its edges let a fleet's list in (far above the
// forms' 16 KiB), and still refuse a body where none is taken.
import { describe, expect, it } from "vitest";
import { FLEET_MAX_BODY_BYTES, FLEET_PATHS } from "@vics/shared";
import { createTestProxy, fakeUpstream } from "../../testing/index.ts";

/** Valid dateless plates: AX1 to AX9999, then BX1... */
const plates = (count: number) =>
  Array.from({ length: count }, (_, i) => ({
    registration: `${"ABC"[Math.floor(i / 9999)]}X${(i % 9999) + 1}`,
    cells: [`Driver ${i}`, "Leeds"],
  }));

describe("saved fleets through the proxy's edges", () => {
  it("takes a list of 20,000 vehicles in one body, and refuses a body on a GET", async () => {
    const { app } = createTestProxy({
      fetch: fakeUpstream().fetch,
      role: "fleet",
    });
    const body = JSON.stringify({
      name: "Everything",
      columns: ["Driver", "Depot"],
      vehicles: plates(20_000),
    });
    expect(body.length).toBeGreaterThan(600_000);
    const saved = await app.request(FLEET_PATHS.fleets, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body,
    });
    expect(saved.status).toBe(201);
    expect(await saved.json()).toMatchObject({ vehicleCount: 20_000 });

    const withBody = await app.request(FLEET_PATHS.fleets, {
      method: "GET",
      headers: { "Content-Length": "2" },
    });
    expect(withBody.status).toBe(413);
  });

  it("refuses a list larger than its limit before reading it", async () => {
    const { app, store } = createTestProxy({
      fetch: fakeUpstream().fetch,
      role: "fleet",
    });
    const response = await app.request(FLEET_PATHS.fleets, {
      method: "POST",
      headers: {
        "Content-Type": "application/json",
        "Content-Length": String(FLEET_MAX_BODY_BYTES + 1),
      },
      body: "{}",
    });
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({
      detail: "The list is too large: it may be at most 24 MB.",
    });
    expect(await store.listFleets()).toEqual([]);
  });
});

describe("notifications through the proxy's edges", () => {
  it("takes the small body of 'mark read', as a browser sends it, with its length", async () => {
    const { app } = createTestProxy({
      fetch: fakeUpstream().fetch,
      role: "fleet",
    });
    const response = await app.request("/api/notifications/read", {
      method: "POST",
      headers: { "Content-Type": "application/json", "Content-Length": "2" },
      body: "{}",
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ unread: 0 });
  });
});
