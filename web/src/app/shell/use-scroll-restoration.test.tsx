// Where the window scrolls as the address changes: a new page at its top, the same page with
// another query where it was, Back where the user left that entry.
import { useLayoutEffect } from "react";
import { describe, expect, it, vi } from "vitest";
import { act, fireEvent, render } from "@testing-library/react";
import { MemoryRouter, useNavigate, type NavigateFunction } from "react-router";
import { useScrollRestoration } from "./use-scroll-restoration.ts";

function Page({ onRender }: { onRender: (n: NavigateFunction) => void }) {
  useScrollRestoration();
  const navigate = useNavigate();
  useLayoutEffect(() => {
    onRender(navigate);
  }, [onRender, navigate]);
  return null;
}

function setup() {
  const scrollTo = vi.spyOn(window, "scrollTo").mockImplementation(() => {});
  let navigate: NavigateFunction = () => undefined;
  const keep = (next: NavigateFunction) => (navigate = next);
  render(
    <MemoryRouter initialEntries={["/fleets/1"]}>
      <Page onRender={keep} />
    </MemoryRouter>,
  );
  const scrollBy = (y: number) => {
    Object.defineProperty(window, "scrollY", { value: y, configurable: true });
    fireEvent.scroll(window);
  };
  const go = (to: string | number) =>
    act(async () => {
      if (typeof to === "number") await navigate(to);
      else await navigate(to);
    });
  return { scrollTo, scrollBy, go };
}

describe("useScrollRestoration", () => {
  it("opens another page at its top", async () => {
    const { scrollTo, scrollBy, go } = setup();
    scrollBy(700);
    await go("/fleets/2");
    expect(scrollTo).toHaveBeenCalledExactlyOnceWith(0, 0);
  });

  it("leaves the page where it is when only the query changes", async () => {
    const { scrollTo, scrollBy, go } = setup();
    scrollBy(700);
    await go("/fleets/1?status=not-insured");
    expect(scrollTo).not.toHaveBeenCalled();
  });

  it("takes Back and Forward to where the user was on each entry", async () => {
    const { scrollTo, scrollBy, go } = setup();
    scrollBy(700);
    await go("/fleets/2");
    scrollBy(250);
    await go(-1);
    expect(scrollTo).toHaveBeenLastCalledWith(0, 700);
    await go(1);
    expect(scrollTo).toHaveBeenLastCalledWith(0, 250);
  });

  it("hands scrolling over from the browser, which would restore before the page is back", () => {
    setup();
    expect(window.history.scrollRestoration).toBe("manual");
  });
});
