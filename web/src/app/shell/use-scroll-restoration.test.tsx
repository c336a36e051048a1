// Where the window scrolls as the address changes: a new page at its top, the same page with
// another query where it was, Back where the user left that entry.
import { describe, expect, it, vi } from "vitest";
import { fireEvent, render } from "@testing-library/react";
import { MemoryRouter } from "react-router";
import { testNavigator } from "../../testing/test-navigator.tsx";
import { useScrollRestoration } from "./use-scroll-restoration.ts";

function Page() {
  useScrollRestoration();
  return null;
}

function setup() {
  const scrollTo = vi.spyOn(window, "scrollTo").mockImplementation(() => {});
  const { element, go } = testNavigator();
  const { unmount } = render(
    <MemoryRouter initialEntries={["/fleets/1"]}>
      <Page />
      {element}
    </MemoryRouter>,
  );
  const scrollBy = (y: number) => {
    Object.defineProperty(window, "scrollY", { value: y, configurable: true });
    fireEvent.scroll(window);
  };
  return { scrollTo, scrollBy, go, unmount };
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

  it("keeps the positions over a reload, and gives scrolling back to the browser as the page goes", async () => {
    const first = setup();
    first.scrollBy(700);
    await first.go("/fleets/2");
    first.scrollBy(250);
    window.dispatchEvent(new Event("pagehide"));
    expect(window.history.scrollRestoration).toBe("auto");
    first.unmount();

    // The same tab, reloaded on the first entry (a new page load: the router's first key).
    const reloaded = setup();
    expect(reloaded.scrollTo).toHaveBeenLastCalledWith(0, 700);
  });

  it("hands scrolling over from the browser, which would restore before the page is back", () => {
    setup();
    expect(window.history.scrollRestoration).toBe("manual");
  });
});
