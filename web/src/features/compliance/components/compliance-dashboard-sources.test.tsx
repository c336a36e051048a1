// Where each fact on the dashboard came from and how old it is (issue 35, point 4).
import { beforeEach, describe, expect, it, vi } from "vitest";
import { screen } from "@testing-library/react";
import type { DataAsOf, FactSources } from "@vics/shared";
import { insuranceFixture } from "../../../testing/fixtures.ts";
import {
  json,
  serveCompliance,
  serveInsurance,
} from "../../../testing/api-handlers.ts";
import { renderRoute } from "../../../testing/render-route.tsx";
import {
  CHECKED_AT,
  complianceFixture,
} from "../../../testing/compliance-fixtures.ts";

// Today is 22 November 2026 in the UK (CHECKED_AT), so 10:02 that day is "today".
beforeEach(() => {
  vi.setSystemTime(CHECKED_AT);
});

const DATA_AS_OF: DataAsOf = {
  insurance: "2026-11-20T06:00:00.000Z",
  mot: "2026-11-20T06:00:00.000Z",
  tax: "2026-11-20T06:00:00.000Z",
  fines: "2026-11-20T06:00:00.000Z",
};

const STALE = "(could not be refreshed just now: this is the stored fact)";

async function showDashboard(
  factSources?: FactSources,
  /** null: the answer has none. */
  dataAsOf: DataAsOf | null = DATA_AS_OF,
) {
  const record = {
    ...complianceFixture(),
    ...(dataAsOf && { dataAsOf }),
    ...(factSources && { factSources }),
  };
  serveCompliance(() => json(record));
  serveInsurance((registration) => json(insuranceFixture({ registration })));
  renderRoute(`/compliance/${record.registration}`);
  await screen.findByRole("heading", { level: 2, name: "Compliant" });
}

/** The dashboard's freshness lines, in order. */
function asOfLines(): string[] {
  return [...document.querySelectorAll(".data-as-of")].map(
    (line) => line.textContent ?? "",
  );
}

describe("compliance dashboard: where each fact came from", () => {
  it("with no register's fact (none on, or a vehicle only imports know): every component VICS's records, as the export says", async () => {
    await showDashboard();
    expect(asOfLines()).toEqual([
      "Insurance: VICS records, as of 20 November 2026 at 06:00",
      "MOT: VICS records, as of 20 November 2026 at 06:00",
      "Road tax: VICS records, as of 20 November 2026 at 06:00",
      "Fines: VICS records, as of 20 November 2026 at 06:00",
    ]);
    expect(screen.queryByText(/data as of/)).not.toBeInTheDocument();
  });

  it("an answer with no dataAsOf at all (a service before it): no freshness lines, as before", async () => {
    await showDashboard(undefined, null);
    expect(asOfLines()).toEqual([]);
  });

  it("fresh facts from the registers: each component's source and time, today and yesterday in words", async () => {
    await showDashboard({
      tax: { source: "dvla-ves", asOf: "2026-11-22T10:02:00.000Z" },
      mot: { source: "dvsa-mot-history", asOf: "2026-11-21T09:15:00.000Z" },
    });
    expect(asOfLines()).toEqual([
      "Insurance: VICS records, as of 20 November 2026 at 06:00",
      "MOT: DVSA, as of 09:15 yesterday",
      "Road tax: DVLA, as of 10:02 today",
      "Fines: VICS records, as of 20 November 2026 at 06:00",
    ]);
    expect(screen.getByText("10:02 today")).toHaveAttribute(
      "datetime",
      "2026-11-22T10:02:00.000Z",
    );
    expect(screen.queryByText(STALE)).not.toBeInTheDocument();
  });

  it("a stale fact says so in words beside it; a component no register gave is VICS's records", async () => {
    await showDashboard({
      mot: {
        source: "dvsa-mot-history",
        asOf: "2026-11-19T08:00:00.000Z",
        stale: true,
      },
    });
    expect(asOfLines()).toEqual([
      "Insurance: VICS records, as of 20 November 2026 at 06:00",
      `MOT: DVSA, as of 19 November 2026 at 08:00 ${STALE}`,
      "Road tax: VICS records, as of 20 November 2026 at 06:00",
      "Fines: VICS records, as of 20 November 2026 at 06:00",
    ]);
    const stale = screen.getByText(STALE);
    expect(stale.tagName).toBe("STRONG");
    expect(stale).toBeVisible();
  });
});
