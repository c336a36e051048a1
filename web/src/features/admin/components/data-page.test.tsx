import { describe, expect, it } from "vitest";
import { screen, waitFor, within } from "@testing-library/react";
import { HttpResponse, http } from "msw";
import {
  ADMIN_DATA_PATHS,
  type DataSources,
  type ImportEntry,
} from "@vics/shared/data-admin";
import { WATCH_PATHS } from "@vics/shared";
import { json } from "../../../testing/api-handlers.ts";
import {
  sessionFixture,
  userWithRole,
} from "../../../testing/auth-fixtures.ts";
import { problemFixture } from "../../../testing/fixtures.ts";
import { renderRoute } from "../../../testing/render-route.tsx";
import { captureDownloads } from "../../../testing/downloads.ts";
import { server } from "../../../testing/server.ts";

const SLOW = { timeout: 10_000 };
const hoursAgo = (hours: number) =>
  new Date(Date.now() - hours * 3_600_000).toISOString();

function entry(overrides: Partial<ImportEntry> = {}): ImportEntry {
  return {
    id: 12,
    kind: "policies",
    mode: "upsert",
    fileName: "policies-2026-11-24.csv",
    sha256: "a".repeat(64),
    bytes: 2048,
    runBy: "ops",
    dataAsOf: "2026-11-24T06:00:00.000Z",
    startedAt: "2026-11-24T06:30:00.000Z",
    finishedAt: "2026-11-24T06:31:00.000Z",
    outcome: "applied",
    message: null,
    counts: {
      rows: 1200,
      added: 1000,
      changed: 150,
      unchanged: 40,
      removed: 0,
      rejected: 10,
    },
    ...overrides,
  };
}

const RECHECKS = {
  dailyTime: "06:00",
  reChecksOn: true,
  unknownForADay: 0,
  runs: [],
};

function serveData(
  sources: DataSources,
  imports: ImportEntry[],
  rechecks: Record<string, unknown> = RECHECKS,
) {
  server.use(
    http.get(ADMIN_DATA_PATHS.sources, () => json(sources)),
    http.get(ADMIN_DATA_PATHS.imports, () => json({ imports })),
    http.get(WATCH_PATHS.admin, () => json(rechecks)),
  );
}

const dataPage = () =>
  renderRoute("/admin/data", {
    session: sessionFixture(userWithRole("admin")),
  });

describe("the data page", () => {
  it("shows each source's freshness, flags a stale one, and the history's range", async () => {
    serveData(
      {
        since: "2026-11-01T09:00:00.000Z",
        historyFrom: "2019-03-03",
        // Now, not hours ago: a test run just after midnight would make that yesterday.
        dataAsOf: { insurance: hoursAgo(0), mot: hoursAgo(24 * 5) },
        synthetic: false,
      },
      [],
    );
    dataPage();
    const table = await screen.findByRole(
      "table",
      { name: "How fresh each source's data is" },
      SLOW,
    );
    const rows = within(table).getAllByRole("row");
    expect(rows[1]).toHaveTextContent(/^Insurance.*today$/);
    expect(rows[2]).toHaveTextContent("5 days ago");
    expect(within(rows[2]!).getByText("Older than 2 days")).toBeVisible();
    expect(within(rows[1]!).queryByText(/Older than/)).not.toBeInTheDocument();
    expect(rows[3]).toHaveTextContent("Road taxNo data yet");
    expect(
      screen.getByText(/Its records cover days from 3 March 2019/),
    ).toBeVisible();
    expect(
      await screen.findByText(/No files have been imported into this database/),
    ).toBeVisible();
    expect(document.title).toBe("Data – VICS");
  });

  it("still says the data is synthetic after a trial import over the seeded fleet", async () => {
    const seededFleet = { vehicles: 50_012, seededOn: "2026-11-24" };
    serveData({ dataAsOf: {}, synthetic: false, seededFleet }, [
      entry({ kind: "vehicles", counts: { ...entry().counts, rows: 1 } }),
    ]);
    dataPage();
    expect(
      await screen.findByText(
        "This database still holds the synthetic demo fleet of 50,012 vehicles seeded on 24 November 2026, with imports over it. Only what the imports below loaded is real data: every other answer is about a synthetic vehicle.",
        {},
        SLOW,
      ),
    ).toBeVisible();
  });

  it("lists the imports with their counts, and downloads an import's refused rows", async () => {
    serveData({ dataAsOf: {}, synthetic: true }, [
      entry(),
      entry({
        id: 11,
        kind: "vehicles",
        mode: "snapshot",
        fileName: "vehicles.csv",
        outcome: "refused",
        dataAsOf: null,
        message:
          "This snapshot would remove 900 of 1,000 vehicle records (90.0%).",
        counts: { ...entry().counts, rejected: 0 },
      }),
    ]);
    const asked: string[] = [];
    server.use(
      http.get(ADMIN_DATA_PATHS.rejectsPattern, ({ params }) => {
        asked.push(String(params.id));
        return new HttpResponse("\uFEFFLine,Column,Value,Reason\r\n", {
          headers: { "Content-Type": "text/csv; charset=utf-8" },
        });
      }),
    );
    const saved = captureDownloads();
    const { user } = dataPage();
    expect(
      await screen.findByText(/holds the synthetic demo fleet/, {}, SLOW),
    ).toBeVisible();
    const table = await screen.findByRole("table", {
      name: "Imports, newest first",
    });
    const [, applied, refused] = within(table).getAllByRole("row");
    expect(applied).toHaveTextContent("policies-2026-11-24.csv");
    expect(applied).toHaveTextContent(
      "1,200 rows: 1,000 added, 150 changed, 40 unchanged, 0 removed, 10 refused",
    );
    expect(refused).toHaveTextContent("Refused");
    expect(refused).toHaveTextContent("would remove 900 of 1,000");
    expect(refused).toHaveTextContent("Nothing applied");
    const download = within(applied!).getByRole("button", {
      name: "Download refused rows",
    });
    expect(download).toHaveAccessibleDescription("policies-2026-11-24.csv");
    expect(
      within(refused!).queryByRole("button", { name: /Download/ }),
    ).not.toBeInTheDocument();
    await user.click(download);
    await waitFor(() => expect(saved).toHaveLength(1));
    expect(asked).toEqual(["12"]);
    expect(saved[0]?.name).toBe("import-12-rejects.csv");
  });

  it("says when the imports cannot be shown, and tries again", async () => {
    server.use(
      http.get(ADMIN_DATA_PATHS.sources, () =>
        json({ dataAsOf: {}, synthetic: false }),
      ),
      http.get(ADMIN_DATA_PATHS.imports, () =>
        json(problemFixture("SERVICE_UNAVAILABLE", 503), 503),
      ),
      http.get(WATCH_PATHS.admin, () => json(RECHECKS)),
    );
    const { user } = dataPage();
    expect(
      await screen.findByText("The imports cannot be shown", {}, SLOW),
    ).toBeVisible();
    serveData({ dataAsOf: {}, synthetic: false }, [entry()]);
    await user.click(screen.getByRole("button", { name: "Try again" }));
    expect(
      await screen.findByRole("table", { name: "Imports, newest first" }),
    ).toBeVisible();
  });

  it("is for admins only", async () => {
    renderRoute("/admin/data", {
      session: sessionFixture(userWithRole("fleet")),
    });
    expect(
      await screen.findByRole("heading", { name: /not allowed|role/i }, SLOW),
    ).toBeVisible();
  });

  it("says why the re-checks are off in the proxy's words, such as a job engine that could not start", async () => {
    const reason =
      "Re-checks are off: their job engine could not start (pg-boss is not installed). They start with the proxy, once that is put right.";
    serveData({ dataAsOf: {}, synthetic: false }, [], {
      ...RECHECKS,
      reChecksOn: false,
      reChecksOff: reason,
    });
    dataPage();
    const section = await screen.findByRole(
      "region",
      { name: "Watched fleets’ re-checks" },
      SLOW,
    );
    expect(await within(section).findByText(reason)).toBeVisible();
    expect(within(section).queryByText(/no key of their own/)).toBeNull();
  });

  it("shows the re-checks: off, vehicles unknown for a day, the latest sweeps, and sets the daily time", async () => {
    serveData({ dataAsOf: {}, synthetic: false }, [], {
      dailyTime: "06:00",
      reChecksOn: false,
      unknownForADay: 3,
      runs: [
        {
          kind: "daily",
          startedAt: "2026-11-27T06:00:00.000Z",
          finishedAt: "2026-11-27T06:00:08.000Z",
          outcome: "finished",
          vehicles: 1200,
          unknown: 3,
          alerts: 4,
        },
        {
          kind: "refresh",
          startedAt: "2026-11-27T04:00:00.000Z",
          finishedAt: "2026-11-27T04:00:02.000Z",
          outcome:
            "Refreshed ahead of the sweep: 1,200 vehicles sent, 1,150 register requests queued, 50 already fresh.",
          vehicles: 1200,
          unknown: 0,
          alerts: 0,
        },
      ],
    });
    let sent: unknown;
    server.use(
      http.patch(WATCH_PATHS.admin, async ({ request }) => {
        sent = await request.json();
        return json({ dailyTime: "05:30" });
      }),
    );
    const { user } = dataPage();
    const section = await screen.findByRole(
      "region",
      { name: "Watched fleets’ re-checks" },
      SLOW,
    );
    expect(
      await within(section).findByText(/^Re-checks are off/),
    ).toBeVisible();
    expect(
      within(section).getByText(
        /3 watched vehicles have had no answer from the vehicle service for over a day/,
      ),
    ).toBeVisible();
    expect(within(section).getByRole("table")).toHaveTextContent(
      "Dailyfinished1,20034",
    );
    expect(within(section).getByRole("table")).toHaveTextContent(
      "Refresh ahead of the sweepRefreshed ahead of the sweep: 1,200 vehicles sent, 1,150 register requests queued, 50 already fresh.1,20000",
    );
    const time = within(section).getByRole("textbox", {
      name: "Daily re-check time",
    });
    await user.clear(time);
    await user.type(time, "05:30");
    await user.click(
      within(section).getByRole("button", { name: "Save the time" }),
    );
    expect(
      await within(section).findByText(
        "The daily re-check now runs at 05:30, UK time.",
      ),
    ).toBeVisible();
    expect(sent).toEqual({ dailyTime: "05:30" });
  });
});
