import { describe, expect, it } from "vitest";
import { readWatchedParams, writeWatchedParams } from "./watched-params.ts";

const read = (search: string) => readWatchedParams(new URLSearchParams(search));

describe("the fleet page's choices in the address", () => {
  it("reads the filter, the search and the date a link gives", () => {
    expect(read("?show=needs-action&q=kim&since=2026-11-24")).toEqual({
      filter: "needs-action",
      search: "kim",
      since: "2026-11-24",
    });
  });

  it("falls back to every vehicle for what it does not know", () => {
    expect(read("?show=expiring&since=2026-02-30")).toEqual({
      filter: "all",
      search: "",
      since: undefined,
    });
    expect(read("?since=yesterday").since).toBeUndefined();
  });

  it("writes only what is not the default, keeping the address's other params", () => {
    const written = writeWatchedParams(
      new URLSearchParams("?show=unknown&x=1"),
      {
        filter: "all",
        search: "lee",
        since: "2026-06-10",
      },
    );
    expect(Object.fromEntries(written)).toEqual({
      x: "1",
      q: "lee",
      since: "2026-06-10",
    });
    expect(
      writeWatchedParams(new URLSearchParams(), { filter: "all", search: "" })
        .size,
    ).toBe(0);
  });
});
