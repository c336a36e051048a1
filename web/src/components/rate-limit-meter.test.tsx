import { describe, expect, it, vi } from "vitest";
import { act, screen, within } from "@testing-library/react";
import {
  insuranceFixture,
  problemFixture,
  rateLimitHeaders,
} from "../test/fixtures.ts";
import { json, serveInsurance } from "../test/api-handlers.ts";
import { renderRoute } from "../test/render-route.tsx";

function meterIn(banner: HTMLElement) {
  return within(banner).queryByRole("status");
}

describe("rate-limit meter", () => {
  it("is hidden until the first response", () => {
    renderRoute("/");
    expect(meterIn(screen.getByRole("banner"))).not.toBeInTheDocument();
    expect(screen.queryByRole("meter")).not.toBeInTheDocument();
  });

  it("shows the latest X-RateLimit-* values after every response", async () => {
    serveInsurance((registration, attempt) =>
      attempt === 1
        ? json(insuranceFixture({ registration }), 200, rateLimitHeaders(118))
        : json(
            problemFixture("VEHICLE_NOT_FOUND", 404),
            404,
            rateLimitHeaders(117, 120, 30),
          ),
    );
    const { user } = renderRoute("/vehicle/AB12CDE");
    const banner = screen.getByRole("banner");

    expect(
      await within(banner).findByText("118 of 120 checks left this minute"),
    ).toHaveAttribute("role", "status");
    const meter = within(banner).getByRole("meter", {
      name: "Checks left this minute",
    });
    expect(meter).toHaveAttribute("value", "118");
    expect(meter).toHaveAttribute("max", "120");
    expect(within(banner).getByText(/Limit resets in 4[12] s/)).toBeVisible();

    await user.type(
      screen.getByRole("textbox", { name: "Registration number" }),
      "{Control>}a{/Control}XY12ZZZ",
    );
    await user.click(screen.getByRole("button", { name: "Check insurance" }));
    expect(
      await within(banner).findByText("117 of 120 checks left this minute"),
    ).toBeVisible();
  });

  it("groups the digits of large limits", async () => {
    serveInsurance((registration) =>
      json(
        insuranceFixture({ registration }),
        200,
        rateLimitHeaders(99_991, 100_000),
      ),
    );
    renderRoute("/vehicle/AB12CDE");
    expect(
      await within(screen.getByRole("banner")).findByRole("status"),
    ).toHaveTextContent("99,991 of 100,000 checks left this minute");
  });

  it("says in words when checks are running low or used up", async () => {
    serveInsurance((registration, attempt) =>
      attempt === 1
        ? json(insuranceFixture({ registration }), 200, rateLimitHeaders(1, 10))
        : json(problemFixture("RATE_LIMITED", 429), 429, {
            ...rateLimitHeaders(0, 10),
            "Retry-After": "40",
          }),
    );
    const { user } = renderRoute("/vehicle/AB12CDE");
    const banner = screen.getByRole("banner");
    expect(
      await within(banner).findByText(/1 of 10 checks left this minute/),
    ).toHaveTextContent("(running low)");

    await user.click(screen.getByRole("button", { name: "Check insurance" }));
    expect(
      await within(banner).findByText("No checks left this minute (limit 10)"),
    ).toBeVisible();
  });

  it("stops saying no checks are left once the window has reset", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    serveInsurance((registration) =>
      json(insuranceFixture({ registration }), 200, rateLimitHeaders(0, 10, 3)),
    );
    renderRoute("/vehicle/AB12CDE");
    const banner = screen.getByRole("banner");
    expect(
      await within(banner).findByText("No checks left this minute (limit 10)"),
    ).toBeVisible();
    expect(within(banner).getByText(/Limit resets in [23] s/)).toBeVisible();

    await act(() => vi.advanceTimersByTimeAsync(4000));
    expect(within(banner).getByRole("status")).toHaveTextContent(
      "Up to 10 checks left this minute",
    );
    expect(within(banner).getByRole("meter")).toHaveAttribute("value", "10");
    expect(within(banner).getByText("Limit has reset")).toBeVisible();
  });
});
