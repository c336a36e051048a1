import { describe, expect, it } from "vitest";
import { QueryClient } from "@tanstack/react-query";
import {
  RECENT_CHECKS_LIMIT,
  RECENT_CHECKS_QUERY_KEY,
  addRecentCheck,
  forgetBrowserRecentChecks,
  toRecentChecks,
} from "./recent-checks.ts";
import type { RecentChecksAnswer } from "./lazy-schemas.ts";

type Check = RecentChecksAnswer["checks"][number];

const at = (minute: number) =>
  `2026-05-01T10:${String(minute).padStart(2, "0")}:00.000Z`;

function check(overrides: Partial<Check> = {}): Check {
  return {
    at: at(1),
    action: "check.insurance",
    registrations: ["AB12CDE"],
    outcome: "200",
    verdict: "insured",
    ...overrides,
  };
}

describe("the proxy's recent checks as the page lists them", () => {
  it("words each verdict as the check pages do, keeping the proxy's order (newest first)", () => {
    const checks = toRecentChecks({
      checks: [
        check({
          registrations: ["UN51NSD"],
          verdict: "not-insured",
          at: at(5),
        }),
        check({
          action: "check.compliance",
          registrations: ["MT15EXP"],
          verdict: "not-compliant",
          at: at(4),
        }),
        check({
          registrations: ["XY12ZZZ"],
          outcome: "404",
          verdict: "not-found",
          at: at(3),
        }),
      ],
    });
    expect(checks).toEqual([
      {
        registration: "UN51NSD",
        kind: "insurance",
        outcome: "Not insured",
        checkedAt: at(5),
      },
      {
        registration: "MT15EXP",
        kind: "compliance",
        outcome: "Not compliant",
        checkedAt: at(4),
      },
      {
        registration: "XY12ZZZ",
        kind: "insurance",
        outcome: "No vehicle found",
        checkedAt: at(3),
      },
    ]);
  });

  it("keeps the latest check of a vehicle and kind only", () => {
    const checks = toRecentChecks({
      checks: [
        check({ verdict: "not-insured", at: at(3) }),
        check({ action: "check.compliance", verdict: "compliant", at: at(2) }),
        check({ verdict: "insured", at: at(1) }),
      ],
    });
    expect(checks.map((each) => `${each.kind} ${each.outcome}`)).toEqual([
      "insurance Not insured",
      "compliance Compliant",
    ]);
  });

  it("keeps the day a check was asked about only when it is a real calendar day", () => {
    const checks = toRecentChecks({
      checks: [
        check({ registrations: ["AA11AAA"], date: "2026-02-28" }),
        check({ registrations: ["BB22BBB"], date: "2026-02-30" }),
        check({ registrations: ["CC33CCC"], date: "28/02/2026" }),
      ],
    });
    expect(checks.map((listed) => listed.date)).toEqual([
      "2026-02-28",
      undefined,
      undefined,
    ]);
  });

  it("leaves out fleet checks, refused or failed checks, and anything it cannot link to", () => {
    const checks = toRecentChecks({
      checks: [
        check({
          action: "check.bulk-insurance",
          registrations: ["AB12CDE", "UN51NSD"],
          verdict: undefined,
        }),
        check({
          registrations: ["RA7EDLM"],
          outcome: "429",
          verdict: undefined,
        }),
        check({
          registrations: ["SE12VER"],
          outcome: "502",
          verdict: undefined,
        }),
        check({ registrations: ["<b>x</b>"] }),
        check({ registrations: [] }),
        check({ at: "yesterday" }),
        check({ registrations: ["GO0DONE"] }),
      ],
    });
    expect(checks.map((each) => each.registration)).toEqual(["GO0DONE"]);
  });

  it("words a check the proxy gave no verdict for by its status", () => {
    const checks = toRecentChecks({
      checks: [
        check({ registrations: ["AB12CDE"], verdict: undefined }),
        check({
          registrations: ["XY12ZZZ"],
          outcome: "404",
          verdict: undefined,
        }),
      ],
    });
    expect(checks.map((each) => each.outcome)).toEqual([
      "Checked",
      "No vehicle found",
    ]);
  });

  it(`lists at most ${RECENT_CHECKS_LIMIT}`, () => {
    const checks = toRecentChecks({
      checks: Array.from({ length: RECENT_CHECKS_LIMIT + 3 }, (_, index) =>
        check({ registrations: [`A${index + 1}`] }),
      ),
    });
    expect(checks).toHaveLength(RECENT_CHECKS_LIMIT);
    expect(checks[0]?.registration).toBe("A1");
  });
});

describe("a check just made", () => {
  it("goes first at once, and the proxy's list is asked for again", async () => {
    const queryClient = new QueryClient();
    queryClient.setQueryData<RecentChecksAnswer>(RECENT_CHECKS_QUERY_KEY, {
      checks: [check({ registrations: ["UN51NSD"] })],
    });
    addRecentCheck(queryClient, {
      registration: "AB12CDE",
      kind: "compliance",
      verdict: "not-compliant",
      checkedAt: new Date(at(9)),
    });
    const cached = queryClient.getQueryData<RecentChecksAnswer>(
      RECENT_CHECKS_QUERY_KEY,
    );
    expect(toRecentChecks(cached ?? { checks: [] })).toEqual([
      {
        registration: "AB12CDE",
        kind: "compliance",
        outcome: "Not compliant",
        checkedAt: at(9),
      },
      expect.objectContaining({ registration: "UN51NSD" }),
    ]);
    expect(
      queryClient.getQueryState(RECENT_CHECKS_QUERY_KEY)?.isInvalidated,
    ).toBe(true);
  });
});

describe("the list an earlier version kept in this browser", () => {
  it("is removed: it named no user, and a shared computer would show it to the next one", () => {
    window.localStorage.setItem("vics:recent-checks", "[]");
    window.localStorage.setItem("vics:other", "kept");
    forgetBrowserRecentChecks();
    expect(window.localStorage.getItem("vics:recent-checks")).toBeNull();
    expect(window.localStorage.getItem("vics:other")).toBe("kept");
  });
});
