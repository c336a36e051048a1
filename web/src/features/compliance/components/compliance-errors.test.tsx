// Errors only the compliance view has: the vehicle lookup behind the verdict, and "Check again".
// Every other error is tested in both views by components/check-lookup.test.tsx.
import { describe, expect, it } from "vitest";
import { screen } from "@testing-library/react";
import {
  json,
  serveCompliance,
  serveInsurance,
} from "../../../testing/api-handlers.ts";
import { complianceFixture } from "../../../testing/compliance-fixtures.ts";
import { insuranceFixture, problemFixture } from "../../../testing/fixtures.ts";
import { renderRoute } from "../../../testing/render-route.tsx";

function serveVehicle() {
  return serveInsurance((registration) =>
    json(insuranceFixture({ registration })),
  );
}

describe("compliance check errors", () => {
  it("not found: no verdict, so the vehicle is not asked for", async () => {
    serveCompliance(() => json(problemFixture("VEHICLE_NOT_FOUND", 404), 404));
    const vehicleRequests = serveVehicle();
    renderRoute("/compliance/AO1");
    await screen.findByRole("heading", { name: "No vehicle found" });
    expect(vehicleRequests).toEqual([]);
  });

  it("a check that fails after a good one replaces the old verdict with the error", async () => {
    serveCompliance((registration, attempt) =>
      attempt === 1
        ? json(complianceFixture({ registration }))
        : json(problemFixture("INTERNAL", 500), 500),
    );
    serveVehicle();
    const { user } = renderRoute("/compliance/AB12CDE");
    await screen.findByRole("heading", { name: "Compliant" });
    await user.click(screen.getByRole("button", { name: "Check again" }));
    await screen.findByRole("heading", {
      name: "The vehicle service had a problem",
    });
    expect(
      screen.queryByRole("heading", { name: "Compliant" }),
    ).not.toBeInTheDocument();
  });
});
