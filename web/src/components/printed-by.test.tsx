import { act, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { formatDateTime } from "../lib/dates.ts";
import { SessionUserContext } from "../lib/session-user.ts";
import { userFixture } from "../testing/auth-fixtures.ts";
import { PrintedBy } from "./printed-by.tsx";

function row(label: string): string {
  const dt = screen.getByText(label, { selector: "dt" });
  return dt.nextElementSibling?.textContent ?? "";
}

function printedBy(user = userFixture(), checkedAt?: string) {
  return render(
    <SessionUserContext.Provider value={{ user, ended: false }}>
      <PrintedBy checkedAt={checkedAt} />
    </SessionUserContext.Provider>,
  );
}

afterEach(() => {
  vi.useRealTimers();
});

describe("the head of a printed record", () => {
  it("names who checked, by name and email, when the check was made and when it was printed", () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime("2026-11-22T10:20:00.000Z");
    printedBy(
      userFixture({ name: "Sam Taylor", email: "sam.taylor@example.org" }),
      "2026-11-22T10:15:00.000Z",
    );
    expect(row("Checked by")).toBe("Sam Taylor (sam.taylor@example.org)");
    // In the app's words for a time ("22 November 2026 at 10:15"), whatever they become.
    expect(row("Checked on")).toBe(formatDateTime("2026-11-22T10:15:00.000Z"));
    expect(row("Printed on")).toBe(formatDateTime("2026-11-22T10:20:00.000Z"));
  });

  it("names the person by email when the account has no name", () => {
    printedBy(userFixture({ name: "", email: "admin@localhost" }));
    expect(row("Checked by")).toBe("admin@localhost");
  });

  it("says when it was printed, not when the page was opened: the time is taken again as the browser prints", () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime("2026-11-22T10:20:00.000Z");
    printedBy(userFixture(), "2026-11-22T10:15:00.000Z");
    vi.setSystemTime("2026-11-23T08:05:00.000Z");
    act(() => {
      window.dispatchEvent(new Event("beforeprint"));
    });
    expect(row("Printed on")).toBe(formatDateTime("2026-11-23T08:05:00.000Z"));
    expect(row("Checked on")).toBe(formatDateTime("2026-11-22T10:15:00.000Z"));
  });
});
