import { describe, expect, it } from "vitest";
import { screen, waitFor, within } from "@testing-library/react";
import {
  AUDIT_CSV_CUT_OFF,
  AUTH_PATHS,
  CLIENT_HEADER,
  type AuditEventAnswer,
} from "@vics/shared";
import { HttpResponse, http } from "msw";
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

function event(overrides: Partial<AuditEventAnswer> = {}): AuditEventAnswer {
  return {
    id: 120,
    // July: UK time is an hour ahead of UTC.
    at: "2026-07-14T13:05:09.000Z",
    userId: "u-ann",
    userEmail: "ann@example.org",
    action: "check.insurance",
    registrations: ["AB12CDE"],
    outcome: "200",
    requestId: "req-7f3a",
    clientAddress: "10.1.2.3",
    ...overrides,
  };
}

/** GET audit: the first page has `next` 70, the page before 70 is the last; returns the searches. */
function serveAudit(first: AuditEventAnswer[] = [event()]) {
  const searches: URLSearchParams[] = [];
  server.use(
    http.get(AUTH_PATHS.audit, ({ request }) => {
      const params = new URL(request.url).searchParams;
      searches.push(params);
      return params.get("before") === "70"
        ? json({
            events: [
              event({
                id: 69,
                action: "sign-in",
                registrations: [],
                outcome: "ok",
              }),
            ],
            next: null,
          })
        : json({ events: first, next: first.length > 0 ? 70 : null });
    }),
  );
  return searches;
}

/** GET audit.csv: answers with `reply`; returns each request's search and client header. */
function serveCsv(reply: () => Response) {
  const requests: { search: Record<string, string>; client: string | null }[] =
    [];
  server.use(
    http.get(AUTH_PATHS.auditCsv, ({ request }) => {
      requests.push({
        search: asObject(new URL(request.url).searchParams),
        client: request.headers.get(CLIENT_HEADER),
      });
      return reply();
    }),
  );
  return requests;
}

const csvResponse = (text: string) =>
  new HttpResponse(text, {
    headers: { "Content-Type": "text/csv; charset=utf-8" },
  });

function auditPage(url = "/admin/audit") {
  return renderRoute(url, { session: sessionFixture(userWithRole("admin")) });
}

const asObject = (params: URLSearchParams | undefined) =>
  Object.fromEntries(params?.entries() ?? []);

describe("the audit log", () => {
  it("shows each event: UK time, user, action in words, registrations, outcome, request id, address", async () => {
    serveAudit([
      event(),
      event({
        id: 119,
        action: "user.role",
        registrations: [],
        outcome: "ok",
        detail: { user: "bo@example.org", from: "staff", to: "fleet" },
      }),
      event({
        id: 118,
        action: "check.bulk-insurance",
        registrations: ["AB12CDE", "UN51NSD", "MT15EXP", "FL00001", "FL00002"],
        outcome: "429",
        requestId: null,
        clientAddress: null,
      }),
    ]);
    auditPage();
    const table = await screen.findByRole("table", {}, SLOW);
    const rows = within(table).getAllByRole("row").slice(1);
    const cells = (row: HTMLElement | undefined) =>
      within(row as HTMLElement)
        .getAllByRole("cell")
        .map((cell) => cell.textContent);
    expect(cells(rows[0])).toEqual([
      "14 Jul 2026, 14:05:09",
      "ann@example.org",
      "Insurance check",
      "AB12 CDE",
      "Answered (200)",
      "req-7f3a",
      "10.1.2.3",
    ]);
    expect(cells(rows[1])?.[2]).toBe(
      "Changed a roleuser: bo@example.org, from: staff, to: fleet",
    );
    expect(cells(rows[1])?.[4]).toBe("Done");
    expect(cells(rows[2])?.slice(2)).toEqual([
      "Fleet insurance check",
      "AB12 CDE, UN51 NSD, MT15 EXP and 2 moreAB12 CDE, UN51 NSD, MT15 EXP, FL00001, FL00002",
      "Refused: too many requests (429)",
      "–",
      "–",
    ]);
  });

  it("finds a registration however it is typed, and puts the search in the address to share", async () => {
    const searches = serveAudit();
    const { user, router } = auditPage();
    await screen.findByRole("table", {}, SLOW);
    await user.type(
      screen.getByRole("textbox", { name: "User" }),
      "ann@example.org",
    );
    await user.type(
      screen.getByRole("textbox", { name: "Registration" }),
      "ab12 cde",
    );
    await user.type(screen.getByRole("textbox", { name: "From" }), "1/7/2026");
    await user.type(
      screen.getByRole("textbox", { name: "To (this day included)" }),
      "2026-07-14",
    );
    await user.click(screen.getByRole("button", { name: "Search" }));

    await waitFor(() =>
      expect(asObject(searches.at(-1))).toEqual({
        user: "ann@example.org",
        registration: "AB12CDE",
        from: "2026-07-01",
        to: "2026-07-14",
        limit: "50",
      }),
    );
    expect(
      Object.fromEntries(new URLSearchParams(router.state.location.search)),
    ).toEqual({
      user: "ann@example.org",
      registration: "AB12CDE",
      from: "2026-07-01",
      to: "2026-07-14",
    });
    await waitFor(() =>
      expect(screen.getByRole("heading", { name: "Events" })).toHaveFocus(),
    );
  });

  it("reads a shared search from the address, fills the form with it, and downloads the same as CSV", async () => {
    const searches = serveAudit();
    const { user } = auditPage(
      "/admin/audit?user=ann%40example.org&registration=AB12CDE&from=2026-07-01",
    );
    await screen.findByRole("table", {}, SLOW);
    expect(asObject(searches[0])).toEqual({
      user: "ann@example.org",
      registration: "AB12CDE",
      from: "2026-07-01",
      limit: "50",
    });
    expect(screen.getByRole("textbox", { name: "Registration" })).toHaveValue(
      "AB12CDE",
    );
    expect(screen.getByRole("textbox", { name: "From" })).toHaveValue(
      "01/07/2026",
    );

    const csv = serveCsv(() => csvResponse("Time (UTC),User\r\n"));
    const saved = captureDownloads();
    await user.click(screen.getByRole("button", { name: "Download CSV" }));
    await waitFor(() => expect(saved).toHaveLength(1));
    expect(csv).toEqual([
      {
        search: {
          user: "ann@example.org",
          registration: "AB12CDE",
          from: "2026-07-01",
        },
        client: "web",
      },
    ]);
    expect(saved[0]?.name).toBe("vics-audit.csv");
    expect(await saved[0]?.file.text()).toBe("Time (UTC),User\r\n");
  });

  it("says when the CSV was cut off at its cap, and not when it holds every event", async () => {
    serveAudit();
    const { user } = auditPage();
    await screen.findByRole("table", {}, SLOW);
    serveCsv(() => csvResponse("Time (UTC),User\r\n2026-07-14,ann\r\n"));
    const saved = captureDownloads();
    await user.click(screen.getByRole("button", { name: "Download CSV" }));
    await waitFor(() => expect(saved).toHaveLength(1));
    expect(screen.queryByText(/cut off/i)).toBeNull();

    serveCsv(() =>
      csvResponse(
        `Time (UTC),User\r\n2026-07-14,ann\r\n${AUDIT_CSV_CUT_OFF} this file holds the newest 100000 events of more that this search found.\r\n`,
      ),
    );
    await user.click(screen.getByRole("button", { name: "Download CSV" }));
    await waitFor(() => expect(saved).toHaveLength(2));
    expect(
      await screen.findByText(
        "The CSV was cut off: it holds only the newest events this search found. Narrow the dates or the filters to download the rest.",
      ),
    ).toHaveAttribute("role", "status");
  });

  it("shows a counted event's attempts, and the client's own request id apart", async () => {
    serveAudit([
      event({
        action: "sign-in.failed",
        registrations: [],
        userId: null,
        userEmail: null,
        outcome: "throttled",
        count: 1250,
        lastAt: "2026-07-14T13:19:59.000Z",
        requestId: "own-id-1",
        correlationId: "script-run-9",
      }),
    ]);
    auditPage();
    const table = await screen.findByRole("table", {}, SLOW);
    expect(table).toHaveTextContent(
      "1,250 attempts, the last at 14 Jul 2026, 14:19:59",
    );
    expect(table).toHaveTextContent("own-id-1");
    expect(table).toHaveTextContent("Client’s id: script-run-9");
  });

  it("says when the CSV cannot be downloaded, and saves nothing", async () => {
    serveAudit();
    const { user } = auditPage();
    await screen.findByRole("table", {}, SLOW);
    serveCsv(() =>
      json(
        {
          ...problemFixture("MALFORMED_REQUEST", 400),
          detail: "from: use a date such as 2026-11-24",
        },
        400,
      ),
    );
    const saved = captureDownloads();
    await user.click(screen.getByRole("button", { name: "Download CSV" }));
    expect(await screen.findByRole("alert")).toHaveTextContent(
      "The CSV could not be downloaded. from: use a date such as 2026-11-24",
    );
    expect(saved).toEqual([]);
  });

  it("says what is wrong with a registration or a date, and searches nothing", async () => {
    const searches = serveAudit();
    const { user } = auditPage();
    await screen.findByRole("table", {}, SLOW);
    await user.type(
      screen.getByRole("textbox", { name: "Registration" }),
      "not a plate!",
    );
    await user.type(
      screen.getByRole("textbox", { name: "From" }),
      "31/02/2026",
    );
    await user.click(screen.getByRole("button", { name: "Search" }));
    const summary = screen.getByRole("alert");
    expect(
      within(summary)
        .getAllByRole("link")
        .map((link) => link.getAttribute("href")),
    ).toEqual(["#audit-registration", "#audit-from"]);
    expect(summary).toHaveTextContent(
      "Enter the first day as a date, like 27/11/2026",
    );
    expect(searches).toHaveLength(1);
  });

  it("goes to older events with the proxy's next, keeping the filters, and back to the newest", async () => {
    const searches = serveAudit();
    const { user, router } = auditPage("/admin/audit?user=ann%40example.org");
    await screen.findByRole("table", {}, SLOW);
    expect(
      screen.queryByRole("link", { name: "Newest events" }),
    ).not.toBeInTheDocument();
    await user.click(screen.getByRole("link", { name: "Older events" }));
    expect(await screen.findByText("Signed in")).toBeVisible();
    expect(asObject(searches.at(-1))).toEqual({
      user: "ann@example.org",
      before: "70",
      limit: "50",
    });
    expect(router.state.location.search).toBe(
      "?user=ann%40example.org&before=70",
    );
    // The last page: nothing older.
    expect(
      screen.queryByRole("link", { name: "Older events" }),
    ).not.toBeInTheDocument();
    // The CSV is of every event the filters find, not of one page.
    const csv = serveCsv(() => csvResponse("Time (UTC),User\r\n"));
    const saved = captureDownloads();
    await user.click(screen.getByRole("button", { name: "Download CSV" }));
    await waitFor(() => expect(saved).toHaveLength(1));
    expect(csv.map((request) => request.search)).toEqual([
      { user: "ann@example.org" },
    ]);
    await user.click(screen.getByRole("link", { name: "Newest events" }));
    await waitFor(() =>
      expect(router.state.location.search).toBe("?user=ann%40example.org"),
    );
  });

  it("says when no event matches", async () => {
    serveAudit([]);
    auditPage("/admin/audit?registration=ZZ99ZZZ");
    expect(
      await screen.findByText("No events match these filters.", {}, SLOW),
    ).toBeVisible();
  });
});
