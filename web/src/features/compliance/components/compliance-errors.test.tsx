import { describe, expect, it, vi } from "vitest";
import { act, screen, within } from "@testing-library/react";
import {
  insuranceFixture,
  problemFixture,
  rateLimitHeaders,
} from "../../../test/fixtures.ts";
import { json, serveInsurance } from "../../../test/insurance-handlers.ts";
import { renderRoute } from "../../../test/render-route.tsx";
import { complianceFixture } from "../test/compliance-fixtures.ts";
import { serveCompliance } from "../test/compliance-handlers.ts";

async function errorPanel(title: string): Promise<HTMLElement> {
  const heading = await screen.findByRole("heading", { name: title });
  return heading.closest("section") as HTMLElement;
}

function serveVehicle() {
  return serveInsurance((registration) =>
    json(insuranceFixture({ registration })),
  );
}

describe("compliance check errors", () => {
  it("not found: words, lookalike links to the compliance view, recorded as a recent check", async () => {
    serveCompliance((registration) =>
      registration === "AO1"
        ? json(problemFixture("VEHICLE_NOT_FOUND", 404, "req-nf-c"), 404)
        : json(complianceFixture({ registration })),
    );
    const vehicleRequests = serveVehicle();
    const { router } = renderRoute("/compliance/AO1");
    const panel = await errorPanel("No vehicle found");

    expect(within(panel).getByRole("alert")).toHaveTextContent(
      "No vehicle found with registration AO 1. Check the letters O and 0, I and 1.",
    );
    const suggestion = within(panel).getByRole("link", { name: "A 01" });
    expect(suggestion).toHaveAttribute("href", "/compliance/A01");
    expect(within(panel).getByText("req-nf-c")).toBeVisible();
    expect(panel).not.toHaveTextContent("404");
    expect(document.title).toBe("Error: AO 1 – Compliance check – VICS");
    expect(
      screen.getByRole("region", { name: "Recent checks" }),
    ).toHaveTextContent("Compliance: No vehicle found");
    expect(vehicleRequests).toEqual([]); // no verdict, so no vehicle asked for

    await act(() => router.navigate(suggestion.getAttribute("href") ?? ""));
    expect(
      await screen.findByRole("heading", { name: "Compliant" }),
    ).toBeVisible();
  });

  it("rate limited: counts down from Retry-After, then retries by itself", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const requested = serveCompliance((registration, attempt) =>
      attempt === 1
        ? json(problemFixture("RATE_LIMITED", 429, "req-429-c"), 429, {
            ...rateLimitHeaders(0, 120, 30),
            "Retry-After": "30",
          })
        : json(complianceFixture({ registration }), 200, rateLimitHeaders(119)),
    );
    serveVehicle();
    renderRoute("/compliance/AB12CDE");

    const panel = await errorPanel("Too many checks");
    expect(within(panel).getByRole("timer")).toHaveTextContent(
      "Trying again in 30 seconds.",
    );
    await act(() => vi.advanceTimersByTimeAsync(29_000));
    expect(within(panel).getByRole("timer")).toHaveTextContent(
      "Trying again in 1 second.",
    );
    expect(requested).toHaveLength(1);

    await act(() => vi.advanceTimersByTimeAsync(1000));
    expect(
      await screen.findByRole("heading", { name: "Compliant" }),
    ).toBeVisible();
    expect(requested).toEqual(["AB12CDE", "AB12CDE"]);
  });

  it("server error: not responding, and Try again shows the dashboard", async () => {
    const requested = serveCompliance((registration, attempt) =>
      attempt === 1
        ? json(problemFixture("INTERNAL", 500, "req-server-c"), 500)
        : json(complianceFixture({ registration })),
    );
    serveVehicle();
    const { user } = renderRoute("/compliance/AB12CDE");
    const panel = await errorPanel("The vehicle service is not responding");
    expect(within(panel).getByRole("alert")).toHaveTextContent(
      "The vehicle service is not responding. Try again in a moment.",
    );
    expect(within(panel).getByText(/Reference:/)).toHaveTextContent(
      "Reference: req-server-c",
    );
    expect(panel).not.toHaveTextContent("500");

    await user.click(within(panel).getByRole("button", { name: "Try again" }));
    expect(
      await screen.findByRole("heading", { name: "Compliant" }),
    ).toBeVisible();
    expect(requested).toHaveLength(2);
  });

  it.each([
    [502, "BAD_GATEWAY" as const, /Try again in a moment/],
    [504, "GATEWAY_TIMEOUT" as const, /took too long to answer/],
  ])(
    "proxy %i: not responding, with Try again",
    async (status, code, words) => {
      serveCompliance(() => json(problemFixture(code, status), status));
      renderRoute("/compliance/AB12CDE");
      const panel = await errorPanel("The vehicle service is not responding");
      expect(within(panel).getByRole("alert")).toHaveTextContent(words);
      expect(
        within(panel).getByRole("button", { name: "Try again" }),
      ).toBeVisible();
    },
  );

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
    await errorPanel("The vehicle service is not responding");
    expect(
      screen.queryByRole("heading", { name: "Compliant" }),
    ).not.toBeInTheDocument();
  });
});
