import "fake-indexeddb/auto";
import { beforeEach, describe, expect, it } from "vitest";
import { screen, waitFor, within } from "@testing-library/react";
import { http } from "msw";
import {
  FLEET_PATHS,
  NOTIFICATION_PATHS,
  type Alert,
  type NotificationRow,
} from "@vics/shared";
import { json } from "../../../testing/api-handlers.ts";
import { server } from "../../../testing/server.ts";
import { renderFleet, setUpFleetTests } from "../testing/fleet-page.tsx";

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

const VANS = { id: "fleet-1", name: "Vans" };
/** A row of one alert, as an alert opened before rows were grouped is. */
const single = (alert: Alert, read: boolean): NotificationRow => ({
  type: "alerts",
  runId: null,
  fleet: VANS,
  kind: alert.kind,
  at: alert.openedAt,
  count: 1,
  unread: read ? 0 : 1,
  alerts: [{ alert, read }],
});
const page = (
  rows: NotificationRow[],
  unread: number,
  more: { page?: number; pages?: number; total?: number } = {},
) => ({
  unread,
  page: more.page ?? 1,
  pages: more.pages ?? 1,
  total: more.total ?? rows.length,
  rows,
});
/** The team's saved fleets, which the page's fleet filter lists. */
const fleet = ({ id, name }: { id: string; name: string }) => {
  const actor = { at: "2026-11-01T09:00:00.000Z", by: "ann@example.com" };
  return {
    id,
    name,
    vehicleCount: 2,
    columns: [],
    version: 1,
    created: actor,
    updated: actor,
  };
};
beforeEach(() => {
  server.use(
    http.get(FLEET_PATHS.fleets, () =>
      json({ fleets: [fleet(VANS), fleet({ id: "fleet-2", name: "Cars" })] }),
    ),
  );
});

describe("notifications", () => {
  it("counts the unread in the navigation, lists each in words with its vehicle, and marks all read", async () => {
    let read = false;
    let marked: unknown;
    server.use(
      http.get(NOTIFICATION_PATHS.list, () =>
        json(page([single(lapsed, read), single(mot, true)], read ? 0 : 1)),
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
      "New LP08 SED in Vans: Not insured: policy POL-9 lapsed on 7 November 2026.",
    );
    expect(listed[1]).toHaveTextContent(
      "MT15 EXP in Vans: MOT expired on 1 October 2026. 2 October 2026 at 07:00, since resolved",
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

  it("marks only the filter's rows read when filtered, and says so on the button", async () => {
    const marked: unknown[] = [];
    server.use(
      http.get(NOTIFICATION_PATHS.list, () =>
        json(page([single(lapsed, false)], 3)),
      ),
      http.post(NOTIFICATION_PATHS.read, async ({ request }) => {
        marked.push(await request.json());
        return json({ unread: 2 });
      }),
    );
    const { user, router } = renderFleet(
      "/notifications?fleet=fleet-1&kind=not-insured",
    );
    const button = await screen.findByRole(
      "button",
      { name: "Mark these as read" },
      SLOW,
    );
    expect(
      screen.queryByRole("button", { name: "Mark all as read" }),
    ).not.toBeInTheDocument();
    await user.click(button);
    await waitFor(() =>
      expect(marked).toEqual([{ fleet: "fleet-1", kind: "not-insured" }]),
    );

    // One fleet, every kind.
    await user.selectOptions(screen.getByLabelText("Kind"), "All kinds");
    await waitFor(() =>
      expect(router.state.location.search).toBe("?fleet=fleet-1"),
    );
    await user.click(
      screen.getByRole("button", { name: "Mark these as read" }),
    );
    await waitFor(() => expect(marked).toHaveLength(2));
    expect(marked[1]).toEqual({ fleet: "fleet-1" });

    // Unfiltered: everything, as the button says.
    await user.selectOptions(screen.getByLabelText("Fleet"), "All fleets");
    await user.click(
      await screen.findByRole("button", { name: "Mark all as read" }),
    );
    await waitFor(() => expect(marked).toHaveLength(3));
    expect(marked[2]).toEqual({});
  }, 20_000);

  it("sums a fleet's first check up in one row, groups a sweep's alerts, pages, filters and marks a row read (issue 34, point 3)", async () => {
    const asked: string[] = [];
    let marked: unknown;
    const untaxed = (id: number, registration: string): Alert => ({
      id,
      registration,
      kind: "untaxed",
      detail: { status: "untaxed", dueDate: "2026-11-01" },
      openedAt: "2026-11-28T06:00:00.000Z",
      closedAt: null,
    });
    server.use(
      http.get(NOTIFICATION_PATHS.list, ({ request }) => {
        const url = new URL(request.url);
        asked.push(url.search);
        if (url.searchParams.get("page") === "2")
          return json(
            page([single(mot, true)], 2, { page: 2, pages: 2, total: 21 }),
          );
        return json(
          page(
            [
              {
                type: "alerts",
                runId: 4,
                fleet: VANS,
                kind: "untaxed",
                at: "2026-11-28T06:00:00.000Z",
                count: 12,
                unread: 12,
                alerts: [
                  { alert: untaxed(30, "AB12CDE"), read: false },
                  { alert: untaxed(31, "LP08SED"), read: false },
                ],
              },
              {
                type: "first-check",
                id: 3,
                fleet: VANS,
                at: "2026-11-27T06:00:00.000Z",
                vehicles: 2000,
                attention: 961,
                read: false,
              },
            ],
            13,
            { pages: 2, total: 21 },
          ),
        );
      }),
      http.post(NOTIFICATION_PATHS.read, async ({ request }) => {
        marked = await request.json();
        return json({ unread: 1 });
      }),
    );
    const { user, router } = renderFleet("/notifications");
    expect(
      await screen.findByText(
        "Vans: first check of 2,000 vehicles, 961 need attention",
        {},
        SLOW,
      ),
    ).toHaveAttribute("href", "/fleets/fleet-1");
    const sweep = screen.getByText(
      "Sweep of 28 November 2026 at 06:00: 12 vehicles in Vans became untaxed or SORN.",
    );
    await user.click(sweep);
    expect(screen.getByRole("link", { name: "AB12 CDE" })).toHaveAttribute(
      "href",
      "/fleets/vehicles/AB12CDE",
    );
    expect(screen.getByText(/^And 10 more/)).toBeVisible();

    // Marking the sweep's row read marks all its vehicles, by the row.
    const row = sweep.closest("li")!;
    await user.click(within(row).getByRole("button", { name: "Mark read" }));
    await waitFor(() =>
      expect(marked).toEqual({
        group: { runId: 4, fleetId: "fleet-1", kind: "untaxed" },
      }),
    );

    expect(screen.getByText(/Page 1 of 2 \(21 rows\)/)).toBeVisible();
    await user.click(screen.getByRole("link", { name: "Older" }));
    expect(await screen.findByText(/Page 2 of 2/)).toBeVisible();
    expect(router.state.location.search).toBe("?page=2");

    await user.selectOptions(screen.getByLabelText("Fleet"), "Cars");
    await user.selectOptions(screen.getByLabelText("Kind"), "Untaxed or SORN");
    await waitFor(() =>
      expect(router.state.location.search).toBe("?fleet=fleet-2&kind=untaxed"),
    );
    await waitFor(() => expect(asked).toContain("?fleet=fleet-2&kind=untaxed"));
  }, 20_000);
});
