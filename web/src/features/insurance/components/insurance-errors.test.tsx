import { describe, expect, it, vi } from "vitest";
import { act, screen, within } from "@testing-library/react";
import { HttpResponse } from "msw";
import {
  insuranceFixture,
  problemFixture,
  rateLimitHeaders,
} from "../../../test/fixtures.ts";
import { json, serveInsurance } from "../../../test/insurance-handlers.ts";
import { renderRoute } from "../../../test/render-route.tsx";

async function errorPanel(title: string): Promise<HTMLElement> {
  const heading = await screen.findByRole("heading", { name: title });
  return heading.closest("section") as HTMLElement;
}

describe("insurance check errors", () => {
  it("not found: words, O/0 I/1 advice, lookalike links and a reference", async () => {
    serveInsurance(() =>
      json(problemFixture("VEHICLE_NOT_FOUND", 404, "req-nf-1"), 404),
    );
    const { router } = renderRoute("/vehicle/AO1");
    const panel = await errorPanel("No vehicle found");

    expect(within(panel).getByRole("alert")).toHaveTextContent(
      "No vehicle found with registration AO 1. Check the letters O and 0, I and 1.",
    );
    expect(within(panel).getByText("Did you mean:")).toBeVisible();
    const suggestion = within(panel).getByRole("link", { name: "A 01" });
    expect(suggestion).toHaveAttribute("href", "/vehicle/A01");
    expect(within(panel).getByText("req-nf-1")).toBeVisible();
    expect(within(panel).queryByRole("button")).not.toBeInTheDocument();
    expect(document.title).toBe("Error: AO 1 – Insurance check – VICS");
    expect(panel).not.toHaveTextContent("404");

    serveInsurance((registration) => json(insuranceFixture({ registration })));
    await act(() => router.navigate(suggestion.getAttribute("href") ?? ""));
    expect(
      await screen.findByRole("heading", { name: "Insured" }),
    ).toBeVisible();
  });

  it("not found without lookalikes: no suggestions", async () => {
    serveInsurance(() => json(problemFixture("VEHICLE_NOT_FOUND", 404), 404));
    renderRoute("/vehicle/XY12ZZZ");
    const panel = await errorPanel("No vehicle found");
    expect(within(panel).queryByText("Did you mean:")).not.toBeInTheDocument();
  });

  it("rate limited: counts down from Retry-After every second, then retries by itself", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const requested = serveInsurance((registration, attempt) =>
      attempt === 1
        ? json(problemFixture("RATE_LIMITED", 429, "req-429"), 429, {
            ...rateLimitHeaders(0, 120, 30),
            "Retry-After": "30",
          })
        : json(insuranceFixture({ registration }), 200, rateLimitHeaders(119)),
    );
    renderRoute("/vehicle/AB12CDE");

    const panel = await errorPanel("Too many checks");
    expect(within(panel).getByRole("timer")).toHaveTextContent(
      "Trying again in 30 seconds.",
    );
    expect(within(panel).getByText("req-429")).toBeVisible();

    await act(() => vi.advanceTimersByTimeAsync(1000));
    expect(within(panel).getByRole("timer")).toHaveTextContent(
      "Trying again in 29 seconds.",
    );
    await act(() => vi.advanceTimersByTimeAsync(28_000));
    expect(within(panel).getByRole("timer")).toHaveTextContent(
      "Trying again in 1 second.",
    );
    expect(requested).toHaveLength(1);

    await act(() => vi.advanceTimersByTimeAsync(1000));
    expect(
      await screen.findByRole("heading", { name: "Insured" }),
    ).toBeVisible();
    expect(requested).toEqual(["AB12CDE", "AB12CDE"]);
  });

  it("rate limited: falls back to X-RateLimit-Reset when Retry-After is missing", async () => {
    serveInsurance(() =>
      json(
        problemFixture("RATE_LIMITED", 429),
        429,
        rateLimitHeaders(0, 10, 17),
      ),
    );
    renderRoute("/vehicle/AB12CDE");
    const panel = await errorPanel("Too many checks");
    expect(within(panel).getByRole("timer")).toHaveTextContent(
      "Trying again in 17 seconds.",
    );
  });

  it("rate limited: the automatic retry can be cancelled, leaving a manual one", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const requested = serveInsurance(() =>
      json(problemFixture("RATE_LIMITED", 429), 429, { "Retry-After": "5" }),
    );
    const { user } = renderRoute("/vehicle/AB12CDE", { fakeTimers: true });
    const panel = await errorPanel("Too many checks");

    await user.click(
      within(panel).getByRole("button", { name: "Cancel automatic retry" }),
    );
    expect(within(panel).queryByRole("timer")).not.toBeInTheDocument();
    expect(within(panel).getByText("Automatic retry cancelled.")).toBeVisible();
    await act(() => vi.advanceTimersByTimeAsync(10_000));
    expect(requested).toHaveLength(1);

    await user.click(within(panel).getByRole("button", { name: "Try again" }));
    await vi.waitFor(() => expect(requested).toHaveLength(2));
  });

  it("server error: the service is not responding, and Try again refetches", async () => {
    const requested = serveInsurance((registration, attempt) =>
      attempt === 1
        ? json(problemFixture("INTERNAL", 500, "req-server-a"), 500)
        : json(insuranceFixture({ registration })),
    );
    const { user } = renderRoute("/vehicle/AB12CDE");
    const panel = await errorPanel("The vehicle service is not responding");
    expect(within(panel).getByRole("alert")).toHaveTextContent(
      "The vehicle service is not responding. Try again in a moment.",
    );
    expect(within(panel).getByText(/Reference:/)).toHaveTextContent(
      "Reference: req-server-a",
    );
    expect(panel).not.toHaveTextContent("500");

    await user.click(within(panel).getByRole("button", { name: "Try again" }));
    expect(
      await screen.findByRole("heading", { name: "Insured" }),
    ).toBeVisible();
    expect(requested).toHaveLength(2);
  });

  it.each([
    [
      "proxy cannot reach the service",
      502,
      "BAD_GATEWAY" as const,
      /Try again in a moment/,
    ],
    [
      "proxy timed out",
      504,
      "GATEWAY_TIMEOUT" as const,
      /took too long to answer/,
    ],
  ])("%s: not responding, with Try again", async (_, status, code, words) => {
    serveInsurance(() => json(problemFixture(code, status), status));
    renderRoute("/vehicle/AB12CDE");
    const panel = await errorPanel("The vehicle service is not responding");
    expect(within(panel).getByRole("alert")).toHaveTextContent(words);
    expect(
      within(panel).getByRole("button", { name: "Try again" }),
    ).toBeVisible();
  });

  it("network failure: not responding, check the connection, Try again", async () => {
    const requested = serveInsurance((registration, attempt) =>
      attempt === 1
        ? HttpResponse.error()
        : json(insuranceFixture({ registration })),
    );
    const { user } = renderRoute("/vehicle/AB12CDE");
    const panel = await errorPanel("The vehicle service is not responding");
    expect(within(panel).getByRole("alert")).toHaveTextContent(
      /Check your network connection/,
    );
    expect(within(panel).queryByText(/Reference:/)).not.toBeInTheDocument();

    await user.click(within(panel).getByRole("button", { name: "Try again" }));
    expect(
      await screen.findByRole("heading", { name: "Insured" }),
    ).toBeVisible();
    expect(requested).toHaveLength(2);
  });

  it("401: tells staff to contact their administrator", async () => {
    serveInsurance(() =>
      json(problemFixture("UNAUTHORIZED", 401, "req-auth-a"), 401),
    );
    renderRoute("/vehicle/AB12CDE");
    const panel = await errorPanel(
      "VICS cannot connect to the vehicle service",
    );
    expect(within(panel).getByRole("alert")).toHaveTextContent(
      /Contact your administrator/,
    );
    expect(within(panel).getByText("req-auth-a")).toBeVisible();
    expect(panel).not.toHaveTextContent(/401|Unauthorized/);
  });

  it("an answer that breaks the contract: words and Try again", async () => {
    serveInsurance(() => json({ registration: "AB12CDE", insured: "yes" }));
    renderRoute("/vehicle/AB12CDE");
    const panel = await errorPanel(
      "The vehicle service sent an answer VICS could not read",
    );
    expect(
      within(panel).getByRole("button", { name: "Try again" }),
    ).toBeVisible();
  });
});
