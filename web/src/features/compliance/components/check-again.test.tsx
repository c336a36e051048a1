import { describe, expect, it, vi } from "vitest";
import { screen } from "@testing-library/react";
import { insuranceFixture, problemFixture } from "../../../testing/fixtures.ts";
import {
  json,
  serveCompliance,
  serveInsurance,
} from "../../../testing/api-handlers.ts";
import { renderRoute } from "../../../testing/render-route.tsx";
import { complianceFixture } from "../../../testing/compliance-fixtures.ts";

describe("Check again", () => {
  it("refetches, shows it is re-checking, then shows and announces the new time", async () => {
    let answerSecond: () => void = () => {};
    const secondAnswered = new Promise<void>((resolve) => {
      answerSecond = resolve;
    });
    const requested = serveCompliance(async (registration, attempt) => {
      if (attempt === 1) return json(complianceFixture({ registration }));
      await secondAnswered;
      return json(
        complianceFixture({
          registration,
          checks: { noOutstandingFines: false },
          details: { fines: { count: 1, totalPence: 6_000 } },
          lastChecked: "2026-11-22T10:20:00.000Z",
        }),
      );
    });
    serveInsurance((registration) => json(insuranceFixture({ registration })));
    const { user } = renderRoute("/compliance/AB12CDE");
    await screen.findByRole("heading", { name: "Compliant" });
    expect(screen.getByText(/^Checked at/)).toHaveTextContent(
      "Checked at 10:15 on 22 November 2026",
    );

    const button = screen.getByRole("button", { name: "Check again" });
    await user.click(button);
    expect(button).toHaveTextContent("Checking again…");
    expect(button).toHaveAttribute("aria-disabled", "true");
    expect(button).toHaveFocus();
    expect(
      screen.getByText("Checking AB12 CDE again…", {
        selector: "[role=status]",
      }),
    ).toBeInTheDocument();
    await vi.waitFor(() => expect(requested).toHaveLength(2));
    await user.click(button); // a second press while busy sends nothing more

    answerSecond();
    expect(
      await screen.findByRole("heading", { name: "Not compliant" }),
    ).toBeVisible();
    expect(screen.getByText(/^Checked at/)).toHaveTextContent(
      "Checked at 10:20 on 22 November 2026",
    );
    expect(
      screen.getByText(
        "AB12 CDE: Not compliant. Checked at 10:20 on 22 November 2026.",
        {
          selector: "[role=status]",
        },
      ),
    ).toBeInTheDocument();
    expect(button).toHaveTextContent("Check again");
    expect(button).not.toHaveAttribute("aria-disabled");
    expect(requested).toHaveLength(2);
  });

  it("also retries the vehicle when it had failed to load", async () => {
    serveCompliance((registration) =>
      json(complianceFixture({ registration })),
    );
    const vehicleRequests = serveInsurance((registration, attempt) =>
      attempt === 1
        ? json(problemFixture("INTERNAL", 500), 500)
        : json(insuranceFixture({ registration })),
    );
    const { user } = renderRoute("/compliance/AB12CDE");
    await screen.findByText(/Vehicle details are not available/);
    await user.click(screen.getByRole("button", { name: "Check again" }));
    expect(await screen.findByText("Ford")).toBeVisible();
    expect(vehicleRequests).toHaveLength(2);
  });
});
