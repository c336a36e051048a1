// Weeks of simulated days, one re-check a day at 06:00 UK time: each alert opens once, on the
// day it should, and closes when its fact is resolved. The book below keeps alerts as the store
// does: one open alert per (kind, key).
import { describe, expect, it } from "vitest";
import { addDays, alertWords, ukDate, ukMidnight } from "@vics/shared";
import {
  alertChange,
  endingThreshold,
  type AlertFact,
  type AlertRef,
} from "./vehicle-alerts.ts";
import type { PolicyFacts, VehicleFacts } from "./vehicle-facts.ts";

interface Booked extends AlertFact {
  openedOn: string;
  closedOn?: string;
}

/** Runs `factsOn(day)` through `days` daily re-checks from `start`; returns every alert made. */
function simulate(
  start: string,
  days: number,
  factsOn: (day: string) => VehicleFacts,
): Booked[] {
  const book: Booked[] = [];
  let previous: VehicleFacts | undefined;
  for (let n = 0; n < days; n += 1) {
    // The sweep runs at 06:00 in London, whatever the offset that day.
    const midnight = ukMidnight(addDays(start, n))!;
    const today = ukDate(new Date(midnight + 6 * 3_600_000));
    const open: AlertRef[] = book.filter((a) => !a.closedOn);
    const facts = factsOn(today);
    const change = alertChange(facts, today, previous, open);
    for (const closed of change.closed) {
      const alert = book.find(
        (a) => a.kind === closed.kind && a.key === closed.key,
      )!;
      alert.closedOn = today;
    }
    for (const alert of change.opened) {
      if (
        book.some(
          (a) => !a.closedOn && a.kind === alert.kind && a.key === alert.key,
        )
      )
        continue;
      book.push({
        ...alert,
        openedOn: today,
        closedOn: alert.resolved ? today : undefined,
      });
    }
    previous = facts;
  }
  return book;
}

const policy = (validTo: string, number = "POL-1"): PolicyFacts => ({
  number,
  insurer: "Northwind Mutual",
  validFrom: "2026-01-01",
  validTo,
});

const base: VehicleFacts = {
  found: true,
  insurance: { status: "insured", policy: policy("2027-06-30") },
  mot: { status: "valid", expiry: "2027-05-01" },
  tax: { status: "taxed", dueDate: "2027-04-01" },
  fines: { count: 0, totalPence: 0 },
};

const summary = (book: Booked[]) =>
  book.map((a) => [a.kind, a.key, a.openedOn, a.closedOn ?? "open"]);

describe("endingThreshold", () => {
  it.each([
    [31, undefined],
    [30, 30],
    [15, 30],
    [14, 14],
    [8, 14],
    [7, 7],
    [2, 7],
    [1, 1],
    [0, 0],
    [-1, undefined],
  ])("%i days left reaches %s", (days, threshold) => {
    expect(endingThreshold(days)).toBe(threshold);
  });
});

describe("a policy that runs out, over seven weeks of daily re-checks", () => {
  it("alerts once at 30, 14, 7 and 1 days and on the day, each closing as the next opens, then 'not insured' the day after", () => {
    const book = simulate("2026-10-20", 49, (today) => ({
      ...base,
      insurance:
        today <= "2026-11-30"
          ? { status: "insured", policy: policy("2026-11-30") }
          : { status: "not-insured", lastPolicy: policy("2026-11-30") },
    }));
    expect(summary(book)).toEqual([
      ["ending", "insurance 2026-11-30 at 30", "2026-10-31", "2026-11-16"],
      ["ending", "insurance 2026-11-30 at 14", "2026-11-16", "2026-11-23"],
      ["ending", "insurance 2026-11-30 at 7", "2026-11-23", "2026-11-29"],
      ["ending", "insurance 2026-11-30 at 1", "2026-11-29", "2026-11-30"],
      ["ending", "insurance 2026-11-30 at 0", "2026-11-30", "2026-12-01"],
      ["not-insured", "POL-1 to 2026-11-30", "2026-12-01", "open"],
    ]);
    expect(book.at(-1)?.detail).toMatchObject({ how: "lapsed" });
  });

  it("a cancellation closes 'ending' with 'not insured' (cancelled); a new policy closes that with 'insured again'", () => {
    const book = simulate("2026-11-01", 40, (today) => {
      if (today < "2026-11-20")
        return {
          ...base,
          insurance: { status: "insured", policy: policy("2026-11-25") },
        };
      if (today < "2026-12-01")
        return {
          ...base,
          insurance: {
            status: "not-insured",
            lastPolicy: policy("2026-11-19", "POL-1"),
          },
        };
      return {
        ...base,
        insurance: { status: "insured", policy: policy("2027-12-01", "POL-2") },
      };
    });
    expect(summary(book)).toEqual([
      ["ending", "insurance 2026-11-25 at 30", "2026-11-01", "2026-11-11"],
      ["ending", "insurance 2026-11-25 at 14", "2026-11-11", "2026-11-18"],
      ["ending", "insurance 2026-11-25 at 7", "2026-11-18", "2026-11-20"],
      ["not-insured", "POL-1 to 2026-11-19", "2026-11-20", "2026-12-01"],
      [
        "insured-again",
        "after POL-1 to 2026-11-19",
        "2026-12-01",
        "2026-12-01",
      ],
    ]);
    // Cover that ended before its own end date: cancelled, not lapsed.
    expect(book.find((a) => a.kind === "not-insured")?.detail).toMatchObject({
      how: "cancelled",
      endedOn: "2026-11-19",
    });
  });
});

describe("a renewal", () => {
  it("closes the 'ending' alert and opens nothing", () => {
    const book = simulate("2026-11-20", 20, (today) => ({
      ...base,
      insurance: {
        status: "insured",
        policy: policy(today < "2026-11-24" ? "2026-11-30" : "2027-11-30"),
      },
    }));
    expect(summary(book)).toEqual([
      ["ending", "insurance 2026-11-30 at 14", "2026-11-20", "2026-11-23"],
      ["ending", "insurance 2026-11-30 at 7", "2026-11-23", "2026-11-24"],
    ]);
  });
});

describe("MOT, road tax and fines", () => {
  it("an MOT that expires alerts 'ending' then 'MOT expired' once, closed by a pass", () => {
    const book = simulate("2027-04-20", 30, (today) => ({
      ...base,
      mot:
        today <= "2027-05-01"
          ? { status: "valid", expiry: "2027-05-01" }
          : today < "2027-05-10"
            ? { status: "expired", expiry: "2027-05-01" }
            : { status: "valid", expiry: "2028-05-09" },
    }));
    const mot = book.filter(
      (a) => a.key.startsWith("mot") || a.kind === "mot-expired",
    );
    expect(summary(mot)).toEqual([
      ["ending", "mot 2027-05-01 at 14", "2027-04-20", "2027-04-24"],
      ["ending", "mot 2027-05-01 at 7", "2027-04-24", "2027-04-30"],
      ["ending", "mot 2027-05-01 at 1", "2027-04-30", "2027-05-01"],
      ["ending", "mot 2027-05-01 at 0", "2027-05-01", "2027-05-02"],
      ["mot-expired", "expired 2027-05-01", "2027-05-02", "2027-05-10"],
    ]);
  });

  it("SORN alerts once and keeps its key while it lasts; taxed again closes it", () => {
    const book = simulate("2026-06-01", 20, (today) => ({
      ...base,
      tax:
        today < "2026-06-15"
          ? { status: "sorn", dueDate: null }
          : { status: "taxed", dueDate: "2027-06-14" },
    }));
    expect(summary(book)).toEqual([
      ["untaxed", "sorn since 2026-06-01", "2026-06-01", "2026-06-15"],
    ]);
  });

  it("a second fine alerts again, one paid alerts nothing, all paid says 'fines paid'", () => {
    const fines = (count: number, totalPence: number) => ({
      ...base,
      fines: { count, totalPence },
    });
    const book = simulate("2026-02-01", 12, (today) => {
      if (today < "2026-02-03") return base;
      if (today < "2026-02-05") return fines(1, 10_000);
      if (today < "2026-02-08") return fines(2, 16_000);
      if (today < "2026-02-10") return fines(1, 6_000);
      return fines(0, 0);
    });
    expect(summary(book)).toEqual([
      ["new-fine", "1 fines, 10000p on 2026-02-03", "2026-02-03", "2026-02-05"],
      ["new-fine", "2 fines, 16000p on 2026-02-05", "2026-02-05", "2026-02-10"],
      [
        "fines-paid",
        "after 2 fines, 16000p on 2026-02-05",
        "2026-02-10",
        "2026-02-10",
      ],
    ]);
  });

  it("a vehicle no longer found alerts once, closing all else; found again closes it, and what still holds alerts again", () => {
    const book = simulate("2026-03-01", 10, (today) =>
      today >= "2026-03-04" && today < "2026-03-08"
        ? { found: false }
        : { ...base, mot: { status: "expired", expiry: "2026-02-01" } },
    );
    expect(summary(book)).toEqual([
      ["mot-expired", "expired 2026-02-01", "2026-03-01", "2026-03-04"],
      ["not-found", "since 2026-03-04", "2026-03-04", "2026-03-08"],
      // Found again with its MOT still expired: alerted again, not lost.
      ["mot-expired", "expired 2026-02-01", "2026-03-08", "open"],
    ]);
  });
});

describe("facts that come back", () => {
  it("a fine paid, then another of the same amount, alerts again; one paid of two alerts nothing", () => {
    const fines = (count: number, totalPence: number) => ({
      ...base,
      fines: { count, totalPence },
    });
    const book = simulate("2026-04-01", 10, (today) => {
      if (today < "2026-04-03") return fines(2, 20_000);
      if (today < "2026-04-05") return fines(1, 10_000);
      if (today < "2026-04-07") return fines(2, 20_000);
      return fines(0, 0);
    });
    expect(summary(book)).toEqual([
      ["new-fine", "2 fines, 20000p on 2026-04-01", "2026-04-01", "2026-04-05"],
      ["new-fine", "2 fines, 20000p on 2026-04-05", "2026-04-05", "2026-04-07"],
      [
        "fines-paid",
        "after 2 fines, 20000p on 2026-04-05",
        "2026-04-07",
        "2026-04-07",
      ],
    ]);
  });

  it("an MOT expired with no date on record keeps one alert while it lasts", () => {
    const book = simulate("2026-05-01", 5, () => ({
      ...base,
      mot: { status: "expired", expiry: null },
    }));
    expect(summary(book)).toEqual([
      ["mot-expired", "expired since 2026-05-01", "2026-05-01", "open"],
    ]);
  });
});

describe("a new vehicle not yet on the insurance record", () => {
  it("is pending, not an alarm, until its 14 days are over; then 'not insured' once", () => {
    const book = simulate("2026-11-01", 25, (today) => ({
      ...base,
      insurance:
        today <= "2026-11-15"
          ? { status: "pending", firstRegistered: "2026-11-01" }
          : { status: "not-insured", lastPolicy: null },
    }));
    expect(summary(book)).toEqual([
      ["not-insured", "never insured", "2026-11-16", "open"],
    ]);
    expect(book[0]?.detail).toMatchObject({ how: "never" });
  });
});

describe("an upstream that does not say which policy ended", () => {
  const notTold: VehicleFacts = {
    ...base,
    insurance: { status: "not-insured" },
  };
  const insured = (validTo: string, number = "POL-1"): VehicleFacts => ({
    ...base,
    insurance: { status: "insured", policy: policy(validTo, number) },
  });

  it("alerts 'not insured' once, with no claim that it never was; a new policy closes it", () => {
    const book = simulate("2026-12-01", 20, (today) => {
      if (today < "2026-12-05") return insured("2027-06-30");
      if (today < "2026-12-15") return notTold;
      return insured("2027-12-14", "POL-2");
    });
    expect(summary(book)).toEqual([
      ["not-insured", "no policy told", "2026-12-05", "2026-12-15"],
      ["insured-again", "after no policy told", "2026-12-15", "2026-12-15"],
    ]);
    const alert = book[0]!;
    expect(alert.detail).toEqual({
      how: "not told",
      policy: null,
      insurer: null,
      endedOn: null,
    });
    expect(alertWords(alert)).toBe("Not insured");
  });

  it("says 'never' only when the upstream says none ever was on the record", () => {
    const book = simulate("2026-12-01", 3, () => ({
      ...base,
      insurance: { status: "not-insured", lastPolicy: null },
    }));
    expect(summary(book)).toEqual([
      ["not-insured", "never insured", "2026-12-01", "open"],
    ]);
    expect(alertWords(book[0]!)).toBe("Not insured: no policy on record");
  });

  it.each([
    [
      "a lapse told",
      { status: "not-insured", lastPolicy: policy("2026-11-30") },
      "Not insured: policy POL-1 lapsed on 30 November 2026",
    ],
    [
      "none ever",
      { status: "not-insured", lastPolicy: null },
      "Not insured: no policy on record",
    ],
  ] as const)(
    "keeps the alert opened for %s when a later answer does not say, and back again: no alert anew",
    (_told, insurance, words) => {
      const told: VehicleFacts = { ...base, insurance };
      const book = simulate("2026-12-01", 12, (today) =>
        today < "2026-12-04" || today >= "2026-12-08" ? told : notTold,
      );
      expect(
        book.map((a) => [a.kind, a.openedOn, a.closedOn ?? "open"]),
      ).toEqual([["not-insured", "2026-12-01", "open"]]);
      // The words of the answer that told, never the bare "Not insured" of one that did not.
      expect(alertWords(book[0]!)).toBe(words);
    },
  );

  it("keeps the 'not told' alert when the upstream starts to say none ever was", () => {
    const book = simulate("2026-12-01", 6, (today) =>
      today < "2026-12-03"
        ? notTold
        : { ...base, insurance: { status: "not-insured", lastPolicy: null } },
    );
    expect(summary(book)).toEqual([
      ["not-insured", "no policy told", "2026-12-01", "open"],
    ]);
  });
});

describe("the clock change", () => {
  it.each([
    ["spring", "2026-03-20", "2026-04-05"],
    ["autumn", "2026-10-15", "2026-10-31"],
  ])("in %s moves no threshold by a day", (_season, start, due) => {
    const book = simulate(start, 20, () => ({
      ...base,
      tax: { status: "taxed", dueDate: due },
    }));
    const tax = book.filter((a) => a.key.startsWith("tax"));
    expect(tax.map((a) => [a.key, a.openedOn])).toEqual([
      [`tax ${due} at 30`, start],
      [`tax ${due} at 14`, addDays(due, -14)],
      [`tax ${due} at 7`, addDays(due, -7)],
      [`tax ${due} at 1`, addDays(due, -1)],
      [`tax ${due} at 0`, due],
    ]);
  });
});
