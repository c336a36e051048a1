// A page whose code failed to load is loaded again on the next visit, not failed for ever.
import { Suspense } from "react";
import { describe, expect, it, vi } from "vitest";
import {
  render,
  screen,
  waitForElementToBeRemoved,
  within,
} from "@testing-library/react";
import { ErrorBoundary } from "react-error-boundary";
import { renderRoute } from "../testing/render-route.tsx";
import { lazyPage, retryFailedPages } from "./lazy-page.tsx";

function Fleet() {
  return <h1>Fleet check</h1>;
}

function show(Page: React.ComponentType, visit: number) {
  return (
    <ErrorBoundary
      resetKeys={[visit]}
      onReset={retryFailedPages}
      fallback={<p>Could not load</p>}
    >
      <Suspense fallback={<p>Loading</p>}>
        <Page />
      </Suspense>
    </ErrorBoundary>
  );
}

describe("lazyPage", () => {
  it("loads the page again on the next visit after a failed load", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    const load = vi
      .fn<() => Promise<{ Fleet: typeof Fleet }>>()
      .mockRejectedValueOnce(
        new Error("Failed to fetch dynamically imported module"),
      )
      .mockResolvedValue({ Fleet });
    const Page = lazyPage(load, (module) => module.Fleet);
    const view = render(show(Page, 1));
    expect(await screen.findByText("Could not load")).toBeVisible();

    view.rerender(show(Page, 2));
    expect(
      await screen.findByRole("heading", { name: "Fleet check" }),
    ).toBeVisible();
    expect(load).toHaveBeenCalledTimes(2);
  });

  it("loads a page once however often it is shown", async () => {
    const load = vi.fn(async () => ({ Fleet }));
    const Page = lazyPage(load, (module) => module.Fleet);
    const view = render(show(Page, 1));
    await screen.findByRole("heading", { name: "Fleet check" });
    view.rerender(show(Page, 2));
    view.unmount();
    render(show(Page, 3));
    await screen.findByRole("heading", { name: "Fleet check" });
    expect(load).toHaveBeenCalledTimes(1);
  });

  it("shows the layout and says VICS is loading, on a first visit straight to such a page", async () => {
    renderRoute("/account");
    const main = screen.getByRole("main");
    expect(within(main).getByText("Loading VICS…")).toBeVisible();
    expect(screen.getByRole("banner")).toHaveTextContent("VICS");
    await waitForElementToBeRemoved(() => screen.queryByText("Loading VICS…"));
    expect(within(main).getByRole("heading", { level: 1 })).toBeVisible();
  });
});
