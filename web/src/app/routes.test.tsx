// Addresses people type or paste that the app does not make: each lands on a real page.
import { describe, expect, it } from "vitest";
import { screen } from "@testing-library/react";
import { json, serveInsurance } from "../testing/api-handlers.ts";
import { insuranceFixture } from "../testing/fixtures.ts";
import { renderRoute } from "../testing/render-route.tsx";

describe("addresses that move to the app's own", () => {
  it.each([
    ["/vehicle", "/", "Check a vehicle’s insurance"],
    ["/vehicle/", "/", "Check a vehicle’s insurance"],
    ["/compliance/", "/compliance", "Check a vehicle’s compliance"],
    ["/fleet/", "/fleet", "Fleet check"],
  ])("%s shows %s", async (url, pathname, heading) => {
    const { router } = renderRoute(url);
    expect(
      await screen.findByRole("heading", { level: 1, name: heading }),
    ).toBeVisible();
    expect(router.state.location.pathname).toBe(pathname);
    // Replaced, not pushed: Back does not return to the address that moved.
    expect(router.state.historyAction).toBe("REPLACE");
    expect(
      screen.queryByRole("heading", { name: "Page not found" }),
    ).not.toBeInTheDocument();
  });

  it("keeps the query and fragment when it drops a trailing slash", async () => {
    const { router } = renderRoute("/compliance/?from=email#top");
    await screen.findByRole("heading", { level: 1 });
    expect(router.state.location).toMatchObject({
      pathname: "/compliance",
      search: "?from=email",
      hash: "#top",
    });
  });

  it("a result's address with a trailing slash shows that result", async () => {
    const requested = serveInsurance((registration) =>
      json(insuranceFixture({ registration })),
    );
    const { router } = renderRoute("/vehicle/AB12CDE/");
    expect(
      await screen.findByRole("heading", { name: "Insured" }),
    ).toBeVisible();
    expect(router.state.location.pathname).toBe("/vehicle/AB12CDE");
    expect(requested).toEqual(["AB12CDE"]);
  });
});
