import { afterEach, describe, expect, it, vi } from "vitest";
import { act, screen, within } from "@testing-library/react";
import { http } from "msw";
import {
  ADMIN_REGISTERS_PATH,
  type RegisterStatus,
} from "@vics/shared/registers-admin";
import { json } from "../../../testing/api-handlers.ts";
import {
  sessionFixture,
  userWithRole,
} from "../../../testing/auth-fixtures.ts";
import { problemFixture } from "../../../testing/fixtures.ts";
import { renderRoute } from "../../../testing/render-route.tsx";
import { server } from "../../../testing/server.ts";

const SLOW = { timeout: 10_000 };
// Noon on 29 November 2026: UK time is UTC in winter, so 10:02Z reads "10:02 today".
const NOW = new Date("2026-11-29T12:00:00.000Z");

function ves(overrides: Partial<RegisterStatus> = {}): RegisterStatus {
  return {
    source: "dvla-ves",
    on: true,
    baseUrl: "https://driver-vehicle-licensing.api.gov.uk/vehicle-enquiry",
    lastSuccessAt: "2026-11-29T10:02:00.000Z",
    lastError: null,
    requestsToday: { used: 1234, quota: 500_000 },
    staleFacts: 12,
    ...overrides,
  };
}

function mot(overrides: Partial<RegisterStatus> = {}): RegisterStatus {
  return {
    source: "dvsa-mot-history",
    on: false,
    baseUrl: null,
    lastSuccessAt: null,
    lastError: null,
    requestsToday: null,
    staleFacts: null,
    ...overrides,
  };
}

/** Answers each request with the next answer, the last one from then on; counts the asks. */
function serveRegisters(...answers: (() => Response)[]) {
  const asked = { count: 0 };
  server.use(
    http.get(ADMIN_REGISTERS_PATH, () => {
      const answer = answers[Math.min(asked.count, answers.length - 1)]!;
      asked.count += 1;
      return answer();
    }),
  );
  return asked;
}

const registers =
  (...list: RegisterStatus[]) =>
  () =>
    json({ registers: list });

function sourcesPage(options: { fakeTimers?: boolean } = {}) {
  return renderRoute("/admin/sources", {
    session: sessionFixture(userWithRole("admin")),
    ...options,
  });
}

const findTable = () =>
  screen.findByRole("table", { name: "The live registers" }, SLOW);

async function rowOf(name: string) {
  const table = await findTable();
  return within(table).getByRole("row", { name: new RegExp(`^${name}`) });
}

/** The cell of `row` under the column headed `column`. */
function cellOf(row: HTMLElement, column: string): HTMLElement {
  const table = row.closest("table")!;
  const headers = within(table)
    .getAllByRole("columnheader")
    .map((header) => header.textContent);
  const index = headers.findIndex((header) => header?.startsWith(column));
  return row.querySelectorAll("th, td")[index] as HTMLElement;
}

describe("the sources page", () => {
  afterEach(() => vi.useRealTimers());

  it("shows an on register: where it calls, its last success, the UTC day's requests against the quota and when they reset, and its stale facts", async () => {
    vi.useFakeTimers({ toFake: ["Date"], now: NOW });
    serveRegisters(registers(ves(), mot()));
    sourcesPage();
    const row = await rowOf("DVLA Vehicle Enquiry Service");
    expect(cellOf(row, "On or off")).toHaveTextContent(
      "On: calls https://driver-vehicle-licensing.api.gov.uk/vehicle-enquiry",
    );
    expect(cellOf(row, "Last success")).toHaveTextContent("10:02 today");
    expect(cellOf(row, "Last error")).toHaveTextContent("None");
    expect(cellOf(row, "Requests today (UTC)")).toHaveTextContent(
      "1,234 of 500,000Resets at 00:00 UTC (00:00 UK time)",
    );
    expect(cellOf(row, "Stale facts")).toHaveTextContent("12");
    expect(
      screen.getByRole("heading", { level: 1, name: "Sources" }),
    ).toBeVisible();
    expect(document.title).toBe("Sources – VICS");
  });

  it("says in one line how to turn an off register on", async () => {
    serveRegisters(registers(ves({ on: false, baseUrl: null }), mot()));
    sourcesPage();
    const row = await rowOf("DVLA Vehicle Enquiry Service");
    expect(cellOf(row, "On or off")).toHaveTextContent(
      "Off: set DVLA_VES_API_KEY_FILE in the service's environment; see docs/sources.md in VICS's repository",
    );
    expect(
      cellOf(await rowOf("DVSA MOT History API"), "On or off"),
    ).toHaveTextContent(
      "Off: set DVSA_MOT_API_KEY_FILE, DVSA_MOT_CLIENT_ID, DVSA_MOT_CLIENT_SECRET_FILE and DVSA_MOT_TOKEN_URL in the service's environment; see docs/sources.md in VICS's repository",
    );
    const never = await rowOf("DVSA MOT History API");
    expect(cellOf(never, "Last success")).toHaveTextContent("Never");
    expect(cellOf(never, "Requests today (UTC)")).toHaveTextContent("Off");
    expect(cellOf(never, "Stale facts")).toHaveTextContent("Off");
  });

  it("shows a register's last error in the service's words, and when", async () => {
    vi.useFakeTimers({ toFake: ["Date"], now: NOW });
    const message =
      "DVSA refused the API key (401). Check DVSA_MOT_API_KEY_FILE against the key DVSA sent; a key unused for 90 days is revoked.";
    serveRegisters(
      registers(
        ves(),
        mot({
          on: true,
          baseUrl: "https://history.mot.api.gov.uk",
          lastSuccessAt: "2026-11-28T18:30:00.000Z",
          lastError: {
            at: "2026-11-29T09:15:00.000Z",
            kind: "credentials",
            message,
          },
          requestsToday: { used: 3, quota: 500_000 },
          staleFacts: 0,
        }),
      ),
    );
    sourcesPage();
    const row = await rowOf("DVSA MOT History API");
    const error = cellOf(row, "Last error");
    expect(within(error).getByText("Credentials refused")).toBeVisible();
    expect(within(error).getByText(message)).toBeVisible();
    expect(error).toHaveTextContent("At 09:15 today");
    expect(cellOf(row, "Last success")).toHaveTextContent("18:30 yesterday");
    expect(cellOf(row, "Stale facts")).toHaveTextContent("None");
  });

  it("shows a spent quota", async () => {
    vi.useFakeTimers({ toFake: ["Date"], now: NOW });
    serveRegisters(
      registers(
        ves({
          requestsToday: { used: 500_000, quota: 500_000 },
          lastError: {
            at: "2026-11-29T11:40:00.000Z",
            kind: "quota",
            message:
              "Today's 500,000 requests to DVLA are spent: VICS asks again after midnight UTC. Stored facts keep answering, marked with their age.",
          },
        }),
        mot(),
      ),
    );
    sourcesPage();
    const row = await rowOf("DVLA Vehicle Enquiry Service");
    expect(cellOf(row, "Requests today (UTC)")).toHaveTextContent(
      "500,000 of 500,000",
    );
    expect(cellOf(row, "Last error")).toHaveTextContent(
      /^Quota spentToday's 500,000 requests to DVLA are spent/,
    );
  });

  it("warns 30 days before the DVSA client secret expires, and not before", async () => {
    vi.useFakeTimers({ toFake: ["Date"], now: NOW });
    const on = {
      on: true,
      baseUrl: "https://history.mot.api.gov.uk",
      requestsToday: { used: 0, quota: 500_000 },
      staleFacts: 0,
    };
    serveRegisters(
      registers(
        ves(),
        mot({ ...on, secretExpires: "2026-12-12", secretExpiresSoon: true }),
      ),
    );
    const { unmount } = sourcesPage();
    expect(
      await screen.findByText(
        "The DVSA client secret expires on 12 December 2026: make a new one (docs/sources.md in VICS's repository says how).",
        {},
        SLOW,
      ),
    ).toBeVisible();
    unmount();

    serveRegisters(
      registers(
        ves(),
        mot({ ...on, secretExpires: "2027-06-12", secretExpiresSoon: false }),
      ),
    );
    sourcesPage();
    await findTable();
    expect(screen.queryByText(/client secret/)).not.toBeInTheDocument();
    expect(
      cellOf(await rowOf("DVSA MOT History API"), "On or off"),
    ).toHaveTextContent("Client secret valid until 12 June 2027");
  });

  it("says a secret that has already expired expired", async () => {
    vi.useFakeTimers({ toFake: ["Date"], now: NOW });
    serveRegisters(
      registers(
        ves(),
        mot({
          on: true,
          baseUrl: "https://history.mot.api.gov.uk",
          requestsToday: { used: 0, quota: 500_000 },
          staleFacts: 0,
          secretExpires: "2026-11-20",
          secretExpiresSoon: true,
        }),
      ),
    );
    sourcesPage();
    expect(
      await screen.findByText(
        "The DVSA client secret expired on 20 November 2026: make a new one (docs/sources.md in VICS's repository says how).",
        {},
        SLOW,
      ),
    ).toBeVisible();
  });

  it("asks again every 30 seconds, and keeps the last answer when a refresh fails", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true, now: NOW });
    const broken = ves({
      lastError: {
        at: "2026-11-29T12:00:10.000Z",
        kind: "maintenance",
        message: "DVLA's service is in maintenance (503). VICS tries again.",
      },
    });
    const asked = serveRegisters(
      registers(ves(), mot()),
      registers(broken, mot()),
      () => json(problemFixture("SERVICE_UNAVAILABLE", 503), 503),
    );
    sourcesPage({ fakeTimers: true });
    const first = await rowOf("DVLA Vehicle Enquiry Service");
    expect(cellOf(first, "Last error")).toHaveTextContent("None");
    expect(asked.count).toBe(1);
    // The live region is there, empty, before the failure, so filling it is announced.
    const live = document.querySelector('.admin-sources > [role="status"]');
    expect(live).toBeInTheDocument();
    expect(live).toBeEmptyDOMElement();

    await act(() => vi.advanceTimersByTimeAsync(30_000));
    await vi.waitFor(() =>
      expect(screen.getByText("Provider in maintenance")).toBeVisible(),
    );
    expect(asked.count).toBe(2);

    await act(() => vi.advanceTimersByTimeAsync(30_000));
    const failed = await screen.findByText(
      /^The last refresh failed/,
      {},
      SLOW,
    );
    expect(failed).toHaveTextContent(
      /this is what VICS said at \d\d:\d\d today\. It tries again in 30 seconds\./,
    );
    expect(failed.closest('[role="status"]')).toBe(live);
    expect(asked.count).toBe(3);
    // The last answer stays on the page.
    expect(screen.getByText("Provider in maintenance")).toBeVisible();
  });

  it("says when the registers cannot be shown, and tries again", async () => {
    serveRegisters(
      () => json(problemFixture("SERVICE_UNAVAILABLE", 503), 503),
      registers(ves(), mot()),
    );
    const { user } = sourcesPage();
    expect(
      await screen.findByText("The registers cannot be shown", {}, SLOW),
    ).toBeVisible();
    await user.click(screen.getByRole("button", { name: "Try again" }));
    expect(await findTable()).toBeVisible();
  });

  it("is for admins only", async () => {
    const asked = serveRegisters(registers(ves(), mot()));
    renderRoute("/admin/sources", {
      session: sessionFixture(userWithRole("fleet")),
    });
    expect(
      await screen.findByRole("heading", { name: /not allowed|role/i }, SLOW),
    ).toBeVisible();
    expect(asked.count).toBe(0);
  });
});
