import "fake-indexeddb/auto";
import { describe, expect, it } from "vitest";
import { screen, waitFor, within } from "@testing-library/react";
import { http } from "msw";
import { NOTIFICATION_PATHS, type Alert } from "@vics/shared";
import { json } from "../../../test/api-handlers.ts";
import { server } from "../../../test/server.ts";
import { renderFleet, setUpFleetTests } from "./fleet-test-support.tsx";

setUpFleetTests();

const SLOW = { timeout: 5000 };

const lapsed: Alert = {
  id: 7,
  registration: "LP08SED",
  kind: "not-insured",
  detail: { how: "lapsed", policy: "POL-9", endedOn: "2026-11-07" },
  openedAt: "2026-11-08T06:00:00.000Z",
  closedAt: null,
};
const mot: Alert = {
  id: 5,
  registration: "MT15EXP",
  kind: "mot-expired",
  detail: { expiry: "2026-10-01" },
  openedAt: "2026-10-02T06:00:00.000Z",
  closedAt: "2026-10-10T06:00:00.000Z",
};

describe("notifications", () => {
  it("counts the unread in the navigation, lists each in words with its vehicle, and marks all read", async () => {
    let read = false;
    let marked: unknown;
    server.use(
      http.get(NOTIFICATION_PATHS.list, () =>
        json({
          unread: read ? 0 : 1,
          notifications: [
            { alert: lapsed, read },
            { alert: mot, read: true },
          ],
        }),
      ),
      // The count as the navigation first read it, before these arrived: the page's list
      // brings the badge up to date.
      http.get(NOTIFICATION_PATHS.unread, () => json({ unread: 0 })),
      http.post(NOTIFICATION_PATHS.read, async ({ request }) => {
        marked = await request.json();
        read = true;
        return json({ unread: 0 });
      }),
    );
    const { user } = renderFleet("/notifications");
    const nav = await screen.findByRole(
      "navigation",
      { name: "Primary" },
      SLOW,
    );
    expect(
      await within(nav).findByRole(
        "link",
        { name: /^Notifications\s*1\s*unread$/ },
        SLOW,
      ),
    ).toHaveAttribute("href", "/notifications");

    const items = await screen.findAllByRole("listitem", {}, SLOW);
    const listed = items.filter((item) =>
      item.closest("ul")?.classList.contains("notifications"),
    );
    expect(listed[0]).toHaveTextContent(
      "New LP08 SED: Not insured: policy POL-9 lapsed on 7 November 2026.",
    );
    expect(listed[1]).toHaveTextContent(
      "MT15 EXP: MOT expired on 1 October 2026. 2 October 2026 at 07:00, since resolved",
    );
    expect(within(listed[0]!).getByRole("link")).toHaveAttribute(
      "href",
      "/fleets/vehicles/LP08SED",
    );

    // "1 unread." is in a live region from the start, so that "All read." is read out.
    const count = screen.getByText("1 unread.");
    expect(count).toHaveAttribute("role", "status");
    await user.click(screen.getByRole("button", { name: "Mark all as read" }));
    expect(await screen.findByText(/All read\./)).toBeVisible();
    expect(count).toHaveTextContent("All read.");
    expect(marked).toEqual({});
    await waitFor(() =>
      expect(
        within(nav).getByRole("link", { name: "Notifications" }),
      ).toBeVisible(),
    );
  }, 20_000);
});
