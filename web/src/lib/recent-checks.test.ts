import { describe, expect, it, vi } from "vitest";
import {
  RECENT_CHECKS_KEY,
  RECENT_CHECKS_LIMIT,
  addRecentCheck,
  clearRecentChecks,
  getRecentChecks,
  resetRecentChecksMemory,
  subscribeRecentChecks,
} from "./recent-checks.ts";

const at = (minute: number) =>
  new Date(`2026-05-01T10:${String(minute).padStart(2, "0")}:00Z`);

describe("recent checks", () => {
  it("adds checks newest first and keeps them in localStorage", () => {
    addRecentCheck({
      registration: "AB12CDE",
      kind: "insurance",
      outcome: "Insured",
      checkedAt: at(1),
    });
    addRecentCheck({
      registration: "UN51NSD",
      kind: "insurance",
      outcome: "Not insured",
      checkedAt: at(2),
    });
    expect(getRecentChecks().map((check) => check.registration)).toEqual([
      "UN51NSD",
      "AB12CDE",
    ]);
    const stored: unknown = JSON.parse(
      window.localStorage.getItem(RECENT_CHECKS_KEY) ?? "[]",
    );
    expect(stored).toHaveLength(2);
  });

  it("moves a repeated check of the same kind to the top instead of duplicating it", () => {
    addRecentCheck({
      registration: "AB12CDE",
      kind: "insurance",
      outcome: "Insured",
    });
    addRecentCheck({
      registration: "UN51NSD",
      kind: "insurance",
      outcome: "Not insured",
    });
    addRecentCheck({
      registration: "AB12CDE",
      kind: "compliance",
      outcome: "Compliant",
    });
    addRecentCheck({
      registration: "AB12CDE",
      kind: "insurance",
      outcome: "Not insured",
    });
    expect(
      getRecentChecks().map(
        (check) => `${check.registration} ${check.kind} ${check.outcome}`,
      ),
    ).toEqual([
      "AB12CDE insurance Not insured",
      "AB12CDE compliance Compliant",
      "UN51NSD insurance Not insured",
    ]);
  });

  it(`keeps only the last ${RECENT_CHECKS_LIMIT}`, () => {
    for (let index = 0; index < RECENT_CHECKS_LIMIT + 3; index++)
      addRecentCheck({
        registration: `A${index + 1}`,
        kind: "insurance",
        outcome: "Insured",
      });
    const checks = getRecentChecks();
    expect(checks).toHaveLength(RECENT_CHECKS_LIMIT);
    expect(checks[0]?.registration).toBe(`A${RECENT_CHECKS_LIMIT + 3}`);
  });

  it("clears everything and tells subscribers", () => {
    const listener = vi.fn();
    const unsubscribe = subscribeRecentChecks(listener);
    addRecentCheck({
      registration: "AB12CDE",
      kind: "insurance",
      outcome: "Insured",
    });
    clearRecentChecks();
    unsubscribe();
    expect(getRecentChecks()).toEqual([]);
    expect(window.localStorage.getItem(RECENT_CHECKS_KEY)).toBeNull();
    expect(listener).toHaveBeenCalledTimes(2);
  });

  it.each([
    ["not JSON", "{oops"],
    ["not a list", JSON.stringify({ registration: "AB12CDE" })],
    ["null", "null"],
  ])("reads corrupt storage (%s) as an empty list", (_, raw) => {
    window.localStorage.setItem(RECENT_CHECKS_KEY, raw);
    expect(getRecentChecks()).toEqual([]);
    addRecentCheck({
      registration: "AB12CDE",
      kind: "insurance",
      outcome: "Insured",
    });
    expect(getRecentChecks()).toHaveLength(1);
  });

  it("drops unreadable entries and keeps the good ones", () => {
    window.localStorage.setItem(
      RECENT_CHECKS_KEY,
      JSON.stringify([
        {
          registration: "AB12CDE",
          kind: "insurance",
          outcome: "Insured",
          checkedAt: at(1).toISOString(),
        },
        {
          registration: "<script>",
          kind: "insurance",
          outcome: "x",
          checkedAt: at(1).toISOString(),
        },
        {
          registration: "UN51NSD",
          kind: "bulk",
          outcome: "x",
          checkedAt: at(1).toISOString(),
        },
        "AB12CDE",
        null,
      ]),
    );
    expect(getRecentChecks().map((check) => check.registration)).toEqual([
      "AB12CDE",
    ]);
  });

  it("drops entries with a time or an outcome it never writes, and keeps only its own fields", () => {
    const good = {
      registration: "AB12CDE",
      kind: "compliance",
      outcome: "Compliant",
      checkedAt: "2026-05-01T10:01:00.000Z",
    };
    window.localStorage.setItem(
      RECENT_CHECKS_KEY,
      JSON.stringify([
        { ...good, checkedAt: "2026-05-01 10:01" },
        { ...good, checkedAt: "2026-13-45T10:01:00Z" },
        { ...good, checkedAt: 1_777_000_000_000 },
        { ...good, outcome: "" },
        { ...good, outcome: "x".repeat(81) },
        { ...good, registration: "ab12cde" },
        { ...good, extra: "<img src=x>" },
      ]),
    );
    expect(getRecentChecks()).toEqual([good]);
  });

  it("keeps working in memory when storage refuses to be used", () => {
    vi.spyOn(Storage.prototype, "getItem").mockImplementation(() => {
      throw new DOMException("blocked", "SecurityError");
    });
    vi.spyOn(Storage.prototype, "setItem").mockImplementation(() => {
      throw new DOMException("full", "QuotaExceededError");
    });
    expect(getRecentChecks()).toEqual([]);
    addRecentCheck({
      registration: "AB12CDE",
      kind: "insurance",
      outcome: "Insured",
    });
    expect(getRecentChecks().map((check) => check.registration)).toEqual([
      "AB12CDE",
    ]);
    clearRecentChecks();
    expect(getRecentChecks()).toEqual([]);
    resetRecentChecksMemory();
  });
});
