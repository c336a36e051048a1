import { describe, expect, it } from "vitest";
import {
  auditCsvPath,
  auditPath,
  dateForField,
  filtersFromForm,
  filtersFromParams,
  parseDate,
} from "./audit-filters.ts";

describe("a date typed in the audit filters", () => {
  it.each([
    ["27/11/2026", "2026-11-27"],
    ["1/7/2026", "2026-07-01"],
    ["01 07 2026", "2026-07-01"],
    ["27-11-2026", "2026-11-27"],
    [" 2026-11-27 ", "2026-11-27"],
  ])("reads %j as %s", (typed, iso) => {
    expect(parseDate(typed)).toBe(iso);
    expect(dateForField(iso)).toBe(
      `${iso.slice(8)}/${iso.slice(5, 7)}/${iso.slice(0, 4)}`,
    );
  });

  it.each(["31/02/2026", "2026-13-01", "yesterday", "27/11/26", ""])(
    "refuses %j",
    (typed) => expect(parseDate(typed)).toBeUndefined(),
  );
});

describe("the filters in the address", () => {
  it("keeps what is a filter and drops what is not (a hand-edited address)", () => {
    expect(
      filtersFromParams(
        new URLSearchParams(
          "user=%20ann%40example.org%20&registration=ab12%20cde&from=2026-02-30&to=2026-03-01&before=-4&extra=1",
        ),
      ),
    ).toEqual({
      user: "ann@example.org",
      registration: "AB12CDE",
      to: "2026-03-01",
    });
    expect(filtersFromParams(new URLSearchParams("before=120"))).toEqual({
      before: 120,
    });
  });

  it("asks the proxy for a page of 50, and the CSV for every page", () => {
    const filters = { registration: "AB12CDE", before: 90 };
    expect(auditPath(filters)).toBe(
      "/api/admin/audit?registration=AB12CDE&before=90&limit=50",
    );
    expect(auditCsvPath(filters)).toBe(
      "/api/admin/audit.csv?registration=AB12CDE",
    );
    expect(auditCsvPath({})).toBe("/api/admin/audit.csv");
  });
});

describe("the filters form", () => {
  it("refuses a last day before the first", () => {
    expect(
      filtersFromForm({
        user: "",
        registration: "",
        from: "2/7/2026",
        to: "1/7/2026",
      }),
    ).toEqual({
      errors: [
        {
          fieldId: "audit-to",
          message: "The last day must be the same as or after the first day",
        },
      ],
    });
  });

  it("starts a new search at the newest events", () => {
    expect(
      filtersFromForm({ user: " bo ", registration: "", from: "", to: "" }),
    ).toEqual({ filters: { user: "bo" } });
  });
});
