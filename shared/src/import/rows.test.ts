import { describe, expect, it } from "vitest";
import { columnName, importRowSchemas, readImportRow } from "./rows.ts";

const iso = importRowSchemas("iso");
const uk = importRowSchemas("uk");

const policy = {
  registration: "ab12 cde",
  policy_number: "POL-1",
  insurer: "Northwind Mutual",
  cover_type: "Comprehensive",
  valid_from: "2026-01-01",
  valid_to: "2026-12-31",
};

describe("import rows", () => {
  it("reads a good policy row into the store's names, the registration normalised", () => {
    expect(readImportRow(iso, "policies", policy)).toEqual({
      ok: true,
      row: {
        registration: "AB12CDE",
        number: "POL-1",
        insurer: "Northwind Mutual",
        type: "Comprehensive",
        validFrom: "2026-01-01",
        validTo: "2026-12-31",
      },
    });
  });

  it("reads UK dates in a file that says it writes them", () => {
    const reading = readImportRow(uk, "policies", {
      ...policy,
      valid_from: "1/2/2026",
      valid_to: "31/01/2027",
    });
    expect(reading.ok && reading.row.validFrom).toBe("2026-02-01");
    expect(reading.ok && reading.row.validTo).toBe("2027-01-31");
  });

  it("names every bad cell, its value and why, once each", () => {
    const reading = readImportRow(iso, "policies", {
      ...policy,
      registration: "!!",
      insurer: " ",
      valid_from: "01/02/2026",
      valid_to: "2026-02-30",
    });
    expect(reading).toEqual({
      ok: false,
      problems: [
        {
          column: "registration",
          value: "!!",
          reason:
            "Registration must only include letters A to Z and numbers 0 to 9.",
        },
        { column: "insurer", value: " ", reason: "Enter the insurer." },
        {
          column: "valid_from",
          value: "01/02/2026",
          reason:
            "Write the date as YYYY-MM-DD. This looks like DD/MM/YYYY: if the whole file is written that way, say so (--dates uk).",
        },
        {
          column: "valid_to",
          value: "2026-02-30",
          reason: "There is no such day (YYYY-MM-DD).",
        },
      ],
    });
  });

  it("refuses a policy that ends before it starts, against the end column", () => {
    expect(
      readImportRow(iso, "policies", { ...policy, valid_to: "2025-12-31" }),
    ).toEqual({
      ok: false,
      problems: [
        {
          column: "valid_to",
          value: "2025-12-31",
          reason: "The policy ends before it starts.",
        },
      ],
    });
  });

  it("reads tax: a taxed vehicle needs its due date, SORN needs none", () => {
    expect(
      readImportRow(iso, "tax", { registration: "AB12CDE", status: "SORN" }),
    ).toEqual({
      ok: true,
      row: { registration: "AB12CDE", status: "sorn", dueDate: null },
    });
    expect(
      readImportRow(iso, "tax", {
        registration: "AB12CDE",
        status: "Taxed",
        due_date: "",
      }),
    ).toMatchObject({
      ok: false,
      problems: [
        {
          column: "due_date",
          reason: "A taxed vehicle needs the date its tax is due.",
        },
      ],
    });
    expect(
      readImportRow(iso, "tax", { registration: "AB12CDE", status: "paid" }),
    ).toMatchObject({
      ok: false,
      problems: [{ column: "status", reason: "Write taxed, untaxed or SORN." }],
    });
  });

  it("reads a fine's amount in pounds to pence, and paid as yes or no", () => {
    const fine = {
      registration: "AB12CDE",
      reference: "PCN-1",
      issued_on: "2026-03-01",
      paid: "No",
    };
    const pence = (amount: string) => {
      const reading = readImportRow(iso, "fines", { ...fine, amount });
      return reading.ok ? reading.row.amountPence : reading.problems[0]?.reason;
    };
    expect(pence("60")).toBe(6000);
    expect(pence("60.5")).toBe(6050);
    expect(pence("£1,200.05")).toBe(120005);
    expect(pence("-60")).toBe("Write the amount in pounds, like 60 or 60.00.");
    expect(pence("60.001")).toBe(
      "Write the amount in pounds, like 60 or 60.00.",
    );
    expect(
      readImportRow(iso, "fines", { ...fine, amount: "60", paid: "maybe" }),
    ).toMatchObject({ ok: false, problems: [{ column: "paid" }] });
  });

  it("reads a vehicle, refusing a year that is not four digits", () => {
    const vehicle = {
      registration: "AB12CDE",
      make: "Ford",
      model: "Focus",
      year: "2019",
      colour: "Blue",
      first_registered: "2019-03-01",
    };
    expect(readImportRow(iso, "vehicles", vehicle)).toEqual({
      ok: true,
      row: {
        registration: "AB12CDE",
        make: "Ford",
        model: "Focus",
        year: 2019,
        color: "Blue",
        firstRegistered: "2019-03-01",
      },
    });
    expect(
      readImportRow(iso, "vehicles", { ...vehicle, year: "19" }),
    ).toMatchObject({ ok: false, problems: [{ column: "year" }] });
  });

  it("names columns whatever their case, spaces or hyphens", () => {
    expect(columnName(" Policy Number ")).toBe("policy_number");
    expect(columnName("VALID-FROM")).toBe("valid_from");
  });
});
