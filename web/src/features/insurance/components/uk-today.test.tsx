// The insurance and compliance views count days from the UK's date, as the service does: at
// 00:30 on a summer morning in London it is already the new day, though UTC is not.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { screen } from "@testing-library/react";
import { insuranceFixture, policyFixture } from "../../../testing/fixtures.ts";
import { json, serveInsurance } from "../../../testing/api-handlers.ts";
import { renderRoute } from "../../../testing/render-route.tsx";

function descriptionOf(term: string): string {
  const dt = screen.getByText(term, { selector: "dt" });
  return dt.nextElementSibling?.textContent ?? "";
}

describe("today is the UK's date", () => {
  beforeEach(() => {
    // 00:30 BST on 15 July 2026: still 14 July in UTC.
    vi.useFakeTimers({
      toFake: ["Date"],
      now: new Date("2026-07-14T23:30:00Z"),
    });
  });
  afterEach(() => vi.useRealTimers());

  it("a policy ending on the UK date ends today, not tomorrow", async () => {
    serveInsurance(() =>
      json(
        insuranceFixture({
          policy: policyFixture({
            validFrom: "2025-07-16",
            validTo: "2026-07-15",
          }),
        }),
      ),
    );
    renderRoute("/vehicle/AB12CDE");
    expect(
      await screen.findByRole("heading", { name: "Insured" }),
    ).toBeVisible();
    expect(descriptionOf("Valid to")).toBe("15 July 2026 (ends today)");
    expect(screen.getByText(/Expiring soon:/).parentElement).toHaveTextContent(
      "this policy ends today, on 15 July 2026",
    );
  });

  it("a lapsed policy that ended on the UK date before ended yesterday", async () => {
    serveInsurance(() =>
      json(
        insuranceFixture({
          insured: false,
          policy: policyFixture({
            validFrom: "2025-07-15",
            validTo: "2026-07-14",
          }),
        }),
      ),
    );
    renderRoute("/vehicle/AB12CDE");
    expect(
      await screen.findByRole("heading", { name: "Not insured" }),
    ).toBeVisible();
    expect(descriptionOf("Valid to")).toBe("14 July 2026 (ended yesterday)");
  });
});
