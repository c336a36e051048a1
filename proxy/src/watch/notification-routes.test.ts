import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { NOTIFICATION_PATHS, NotificationsSchema } from "@vics/shared";
import { jsonRequest, signedInApp } from "../test-support/signed-in-app.ts";
import { registerNotificationRoutes } from "./notification-routes.ts";

const NOW = Date.parse("2026-11-27T06:00:00Z");
let harness: ReturnType<typeof signedInApp>;
beforeEach(async () => {
  harness = signedInApp();
  registerNotificationRoutes(harness.app, harness.store);
  await harness.store.createFleet(
    "Vans",
    { columns: [], vehicles: [{ registration: "LP08SED", cells: [] }] },
    { email: "ann@example.org", at: NOW },
  );
  await harness.store.recordRechecks([
    {
      registration: "LP08SED",
      at: NOW,
      facts: { found: true },
      timeline: [],
      opened: [
        { kind: "not-insured", key: "never insured", detail: { how: "never" } },
        { kind: "untaxed", key: "sorn since 2026-11-27", detail: {} },
      ],
      closed: [],
    },
  ]);
});
afterEach(() => harness.store.close());

describe("/api/notifications", () => {
  it("lists a fleet user's notifications with the unread count, and marks them read for that user only", async () => {
    const ann = await harness.signedIn("fleet");
    const bob = await harness.signedIn("fleet");
    const list = async (cookie: string) =>
      NotificationsSchema.parse(
        await (
          await harness.app.request(NOTIFICATION_PATHS.list, {
            headers: { Cookie: cookie },
          })
        ).json(),
      );
    const first = await list(ann.cookie);
    expect(first.unread).toBe(2);
    expect(first.notifications.map((n) => n.alert.kind)).toEqual([
      "untaxed",
      "not-insured",
    ]);
    const one = first.notifications[1]!.alert.id;
    const marked = await harness.app.request(
      NOTIFICATION_PATHS.read,
      jsonRequest("POST", { ids: [one] }, ann.cookie),
    );
    expect(await marked.json()).toEqual({ unread: 1 });
    const count = await harness.app.request(NOTIFICATION_PATHS.unread, {
      headers: { Cookie: ann.cookie },
    });
    expect(await count.json()).toEqual({ unread: 1 });
    expect((await list(ann.cookie)).notifications.map((n) => n.read)).toEqual([
      false,
      true,
    ]);
    expect((await list(bob.cookie)).unread).toBe(2);
    await harness.app.request(
      NOTIFICATION_PATHS.read,
      jsonRequest("POST", {}, ann.cookie),
    );
    expect((await list(ann.cookie)).unread).toBe(0);
  });

  it("is for the fleet role", async () => {
    const staff = await harness.signedIn("staff");
    const refused = await harness.app.request(NOTIFICATION_PATHS.list, {
      headers: { Cookie: staff.cookie },
    });
    expect(refused.status).toBe(403);
  });
});
