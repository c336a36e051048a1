import "fake-indexeddb/auto";
import { describe, expect, it } from "vitest";
import { screen, within } from "@testing-library/react";
import { http } from "msw";
import { WATCH_PATHS } from "@vics/shared";
import { json } from "../../../testing/api-handlers.ts";
import { server } from "../../../testing/server.ts";
import { renderFleet, setUpFleetTests } from "../testing/fleet-page.tsx";

setUpFleetTests();

const SLOW = { timeout: 5000 };

describe("a watched vehicle's timeline", () => {
  it("says every change in words with when it was seen, and each alert open or resolved", async () => {
    server.use(
      http.get(WATCH_PATHS.vehicle("LP08SED"), () =>
        json({
          registration: "LP08SED",
          timeline: [
            {
              at: "2026-11-27T06:00:00.000Z",
              area: "insurance",
              before: {
                status: "insured",
                policy: {
                  number: "POL-9",
                  insurer: "Northwind Mutual",
                  validFrom: "2025-11-27",
                  validTo: "2026-11-26",
                },
              },
              after: {
                status: "not-insured",
                lastPolicy: {
                  number: "POL-9",
                  insurer: "Northwind Mutual",
                  validFrom: "2025-11-27",
                  validTo: "2026-11-26",
                },
              },
            },
            {
              at: "2026-11-20T06:00:00.000Z",
              area: "tax",
              before: null,
              after: { status: "sorn", dueDate: null },
            },
          ],
          alerts: [
            {
              id: 3,
              registration: "LP08SED",
              kind: "not-insured",
              detail: { how: "lapsed", policy: "POL-9", endedOn: "2026-11-26" },
              openedAt: "2026-11-27T06:00:00.000Z",
              closedAt: null,
            },
            {
              id: 2,
              registration: "LP08SED",
              kind: "ending",
              detail: { area: "insurance", date: "2026-11-26", threshold: 7 },
              openedAt: "2026-11-20T06:00:00.000Z",
              closedAt: "2026-11-25T06:00:00.000Z",
            },
          ],
        }),
      ),
    );
    renderFleet("/fleets/vehicles/LP08SED");
    expect(
      await screen.findByRole(
        "heading",
        { name: "Watched vehicle LP08 SED" },
        SLOW,
      ),
    ).toBeVisible();
    const rows = within(screen.getByRole("table")).getAllByRole("row").slice(1);
    expect(rows[0]).toHaveTextContent(
      "Insurance" +
        "Insured by Northwind Mutual (policy POL-9) until 26 November 2026" +
        "Not insured: policy POL-9 ended 26 November 2026",
    );
    expect(rows[1]).toHaveTextContent(
      "Road taxFirst seenDeclared off the road (SORN)",
    );
    expect(
      screen.getByText(/^Not insured: policy POL-9 lapsed/),
    ).toHaveTextContent(/, open$/);
    expect(screen.getByText(/^Insurance ends within 7 days/)).toHaveTextContent(
      /, resolved 25 November 2026 at 06:00$/,
    );
  });
});
