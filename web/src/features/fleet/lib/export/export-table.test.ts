import { describe, expect, it } from "vitest";
import type { FleetRow } from "../fleet-types.ts";
import { PASTE_SOURCE } from "../parse/parse-paste.ts";
import { OUTCOME_LABELS } from "@vics/fleet";
import {
  exportColumnKind,
  exportHeader,
  exportRows,
  type ExportRun,
} from "./export-table.ts";
import {
  policy,
  RESULTS,
  ROWS,
  RUN,
  TODAY,
  VEHICLE,
} from "./export-test-run.ts";
import type { VehicleResult } from "../fleet-types.ts";

const complianceRun: ExportRun = { ...RUN, checkCompliance: true };

/** Each exported row as an object keyed by the header, to read the tests by column name. */
function exported(run: ExportRun, rows: readonly FleetRow[] = ROWS) {
  const header = exportHeader(run, TODAY);
  return exportRows(rows, RESULTS, run, TODAY).map((cells) => {
    expect(cells).toHaveLength(header.length);
    return Object.fromEntries(
      header.map((name, index) => [name, cells[index]]),
    );
  });
}

const OUR_COLUMNS = [
  "Registration",
  "Outcome",
  "Insurer",
  "Policy number",
  "Cover type",
  "Valid from",
  "Valid to",
  "Due within 30 days of 2026-11-23",
  "Make",
  "Model",
  "Year",
  "Colour",
  "Notes",
];

/** With compliance, MOT and road tax due dates sit beside the cover's. */
const OUR_COMPLIANCE_COLUMNS = OUR_COLUMNS.flatMap((name) =>
  name === "Valid to" ? [name, "MOT due", "Tax due"] : [name],
);

describe("exportHeader", () => {
  it("gives the user's columns back in their order and names, their registration column in its place, then ours", () => {
    expect(exportHeader(RUN, TODAY)).toEqual([
      "Row",
      "Fleet number",
      // A user's name that is also ours says whose it is.
      "Registration (your list)",
      "Make (your list)",
      "Joined",
      ...OUR_COLUMNS,
    ]);
  });

  it.each<[string, Partial<ExportRun>, string[]]>([
    [
      "registrations last in the list",
      { registrationColumn: "VRM", registrationColumnIndex: 3 },
      ["Fleet number", "Make (your list)", "Joined", "VRM"],
    ],
    [
      "a run saved before the index was kept: registrations first",
      { registrationColumn: "VRM", registrationColumnIndex: undefined },
      ["VRM", "Fleet number", "Make (your list)", "Joined"],
    ],
    [
      "an index past the end: registrations last",
      { registrationColumn: "VRM", registrationColumnIndex: 9 },
      ["Fleet number", "Make (your list)", "Joined", "VRM"],
    ],
    [
      "a file without a header: named by what it holds",
      {
        registrationColumn: null,
        registrationColumnIndex: 1,
        extraColumns: ["Column 1", "Column 3"],
      },
      ["Column 1", "Registration as submitted", "Column 3"],
    ],
    [
      "a paste: its one column is the registrations as pasted",
      {
        name: PASTE_SOURCE,
        registrationColumn: null,
        registrationColumnIndex: 0,
        extraColumns: [],
      },
      ["Registration as pasted"],
    ],
  ])("%s", (_name, change, userColumns) => {
    expect(exportHeader({ ...RUN, ...change }, TODAY)).toEqual([
      "Row",
      ...userColumns,
      ...OUR_COLUMNS,
    ]);
  });

  it("adds the verdict, the four checks and their reasons, and where tax and MOT came from, with compliance", () => {
    expect(
      exportHeader(complianceRun, TODAY).slice(
        5,
        5 + OUR_COMPLIANCE_COLUMNS.length,
      ),
    ).toEqual(OUR_COMPLIANCE_COLUMNS);
    expect(
      exportHeader(complianceRun, TODAY).slice(
        5 + OUR_COMPLIANCE_COLUMNS.length,
      ),
    ).toEqual([
      "Compliant",
      "Insurance check",
      "Insurance reason",
      "MOT check",
      "MOT reason",
      "Road tax check",
      "Road tax reason",
      "Fines check",
      "Fines reason",
      "Road tax source",
      "Road tax as of (UK time)",
      "MOT source",
      "MOT as of (UK time)",
    ]);
  });
});

describe("exportColumnKind", () => {
  it("types our numbers and dates, leaves the user's columns to their cells, the rest text", () => {
    const header = exportHeader(complianceRun, TODAY);
    const kinds = header.map(exportColumnKind);
    const named = (kind: string) =>
      header.filter((_, index) => kinds[index] === kind);
    expect(named("number")).toEqual(["Row", "Year"]);
    expect(named("date")).toEqual([
      "Valid from",
      "Valid to",
      "MOT due",
      "Tax due",
    ]);
    expect(named("datetime")).toEqual([
      "Road tax as of (UK time)",
      "MOT as of (UK time)",
    ]);
    expect(named("user")).toEqual([
      "Fleet number",
      "Registration (your list)",
      "Make (your list)",
      "Joined",
    ]);
    expect(named("text")).toContain("Registration");
    expect(named("text")).toContain("MOT reason");
  });
});

describe("exportRows", () => {
  const rows = exported(RUN);
  const byRow = (line: number) => rows.find((row) => row.Row === String(line));

  it("has one row per row of the list, in order, nothing dropped", () => {
    expect(rows.map((row) => row.Row)).toEqual(
      ROWS.map((row) => String(row.line)),
    );
  });

  it("writes an insured vehicle in full: the user's cells in place, registration DVLA-spaced, dates as YYYY-MM-DD", () => {
    expect(byRow(2)).toEqual({
      Row: "2",
      "Fleet number": "1000",
      "Registration (your list)": "ab12 cde",
      "Make (your list)": "Ford",
      Joined: "2024-03-01",
      Registration: "AB12 CDE",
      Outcome: "Insured",
      Insurer: "Acorn Mutual",
      "Policy number": "POL-2027-06-30",
      "Cover type": "Third Party, Fire and Theft",
      "Valid from": "2026-01-01",
      "Valid to": "2027-06-30",
      "Due within 30 days of 2026-11-23": "No",
      Make: "Ford",
      Model: "Focus",
      Year: "2019",
      Colour: "Blue",
      Notes: "",
    });
  });

  it.each<[number, Record<string, string>]>([
    [
      3,
      {
        Outcome: "Insured, expiring soon",
        "Valid to": "2026-12-03",
        Notes: "",
      },
    ],
    [
      4,
      {
        Outcome: "Not insured",
        // The upstream did not say which policy ended: nothing to fill in.
        Insurer: "",
        "Valid to": "",
        Make: "Vauxhall",
        Notes: "",
      },
    ],
    [5, { Outcome: "Not found", Make: "", Notes: "Vehicle not found" }],
    [
      6,
      { Outcome: "Not checked", Notes: "Temporarily unavailable, retry later" },
    ],
    [
      7,
      {
        "Registration (your list)": "AB1O CDE",
        Outcome: "Invalid registration",
        Registration: "",
        Notes: "Enter a registration in a UK format, like AB12 CDE",
      },
    ],
    // Excluded: not sent, so row 2's answer for the same vehicle is not written on it.
    [
      8,
      {
        Outcome: "Excluded",
        Registration: "AB12 CDE",
        Insurer: "",
        Make: "",
        Notes: "",
      },
    ],
    [9, { Outcome: OUTCOME_LABELS.pending, Insurer: "", Notes: "" }],
    // A duplicate of row 2 gets row 2's answer.
    [
      10,
      {
        Outcome: "Insured",
        Insurer: "Acorn Mutual",
        "Registration (your list)": "AB12CDE",
      },
    ],
    // Corrected before sending: the list's text in the user's column, the check's in ours.
    // Its cover ended after the run was saved: the date says so, whenever the file is read.
    [
      11,
      {
        "Registration (your list)": "LPO8SED",
        Registration: "LP08 SED",
        Outcome: "Insured",
        "Valid to": "2026-11-03",
        Notes: "Corrected from LPO8SED",
      },
    ],
    // A correction still invalid: what the list said, what the user tried, and why not.
    [
      12,
      {
        "Registration (your list)": "??",
        Registration: "",
        Outcome: "Invalid registration",
        Notes:
          "Changed to LPO8SEDX. Registration must be 7 characters or fewer",
      },
    ],
  ])("row %i", (line, expected) => {
    expect(byRow(line)).toMatchObject(expected);
  });

  it("notes a correction beside why the vehicle has no answer, and a cleared one", () => {
    const [notFound, cleared] = exported(RUN, [
      {
        line: 2,
        submitted: "ER19NFO",
        edited: "ER19NFD",
        extra: [],
        registration: "ER19NFD",
      },
      {
        line: 3,
        submitted: "AB1O CDE",
        edited: "",
        extra: [],
        invalid: { reason: "No registration in this row", suggestions: [] },
      },
    ]);
    expect(notFound).toMatchObject({
      "Registration (your list)": "ER19NFO",
      Registration: "ER19 NFD",
      Notes: "Corrected from ER19NFO. Vehicle not found",
    });
    expect(cleared).toMatchObject({
      "Registration (your list)": "AB1O CDE",
      Notes: "Changed to nothing. No registration in this row",
    });
  });

  it("puts a paste's registrations in its one column, as pasted", () => {
    const paste: ExportRun = {
      name: PASTE_SOURCE,
      registrationColumn: null,
      registrationColumnIndex: 0,
      extraColumns: [],
      checkCompliance: false,
    };
    const [first] = exported(paste, [
      { line: 1, submitted: "ab12 cde", extra: [], registration: "AB12CDE" },
    ]);
    expect(first).toMatchObject({
      Row: "1",
      "Registration as pasted": "ab12 cde",
      Registration: "AB12 CDE",
      Outcome: "Insured",
    });
  });

  it("reads an older run's rows with the registration first", () => {
    const older: ExportRun = {
      extraColumns: ["Depot"],
      checkCompliance: false,
    };
    expect(
      exportRows([ROWS[0]!], RESULTS, older, TODAY)[0]?.slice(0, 4),
    ).toEqual(["2", "ab12 cde", "1000", "AB12 CDE"]);
  });

  it("writes compliance for the vehicles that have it, blank for the rest", () => {
    const withCompliance = exported(complianceRun);
    expect(withCompliance[0]).toMatchObject({
      Compliant: "Yes",
      "Insurance check": "Pass",
      "MOT reason": "MOT valid until 2027-03-03",
      "Fines reason": "No unpaid fines",
    });
    expect(withCompliance.find((row) => row.Row === "8")).toMatchObject({
      Compliant: "",
      "MOT check": "",
    });
    expect(withCompliance.find((row) => row.Row === "5")).toMatchObject({
      Compliant: "",
      Notes: "Vehicle not found",
    });
  });

  it("gives the MOT and road tax due dates, YYYY-MM-DD, with compliance", () => {
    const withCompliance = exported(complianceRun);
    expect(withCompliance.find((row) => row.Row === "2")).toMatchObject({
      "Valid to": "2027-06-30",
      "MOT due": "2027-03-03",
      "Tax due": "2027-04-01",
      "Due within 30 days of 2026-11-23": "No",
    });
    // Not found: nothing is known to fall due.
    expect(withCompliance.find((row) => row.Row === "5")).toMatchObject({
      "MOT due": "",
      "Tax due": "",
      "Due within 30 days of 2026-11-23": "",
    });
  });

  it("flags what falls due within 30 days, soonest first, and leaves it blank where there is no answer", () => {
    const soon = new Map(RESULTS);
    const answer = RESULTS.get("AB12CDE");
    if (answer?.compliance?.status !== "checked") throw new Error("fixture");
    soon.set("AB12CDE", {
      ...answer,
      compliance: {
        ...answer.compliance,
        details: {
          insurance: { status: "insured", validTo: "2027-06-30" },
          mot: { status: "valid", expiry: "2026-12-20" },
          tax: { status: "taxed", dueDate: "2026-12-01" },
          fines: { count: 0, totalPence: 0 },
        },
      },
    });
    const header = exportHeader(complianceRun, TODAY);
    const due = (line: number) =>
      exportRows(ROWS, soon, complianceRun, TODAY).find(
        (cells) => cells[0] === String(line),
      )?.[header.indexOf("Due within 30 days of 2026-11-23")];
    expect(due(2)).toBe("Yes: road tax, MOT");
    // Cover ends in 10 days.
    expect(due(3)).toBe("Yes: insurance");
    expect(due(4)).toBe("No");
    expect(due(7)).toBe("");
    expect(due(8)).toBe("");
    expect(due(9)).toBe("");
  });

  it("says when compliance alone was not answered", () => {
    const [answer] = [...RESULTS.values()];
    const results = new Map([
      [
        "AB12CDE",
        {
          ...answer!,
          compliance: {
            status: "not-checked" as const,
            reason: "Rate limited",
          },
        },
      ],
    ]);
    const [first] = exportRows(ROWS.slice(0, 1), results, complianceRun, TODAY);
    expect(first?.[exportHeader(complianceRun, TODAY).indexOf("Notes")]).toBe(
      "Compliance not checked: Rate limited",
    );
  });
});

/** A lapsed vehicle, one never insured and a new one not yet on the record, as a run answered them. */
const NOT_INSURED = new Map<string, VehicleResult>([
  [
    "LP08SED",
    {
      registration: "LP08SED",
      checkedAt: `${TODAY}T09:00:00Z`,
      insurance: {
        status: "not-insured",
        lastPolicy: policy("2026-11-03"),
        vehicle: VEHICLE,
      },
    },
  ],
  [
    "UN51NSD",
    {
      registration: "UN51NSD",
      checkedAt: `${TODAY}T09:00:00Z`,
      insurance: { status: "not-insured", lastPolicy: null },
    },
  ],
  [
    "NW25CAR",
    {
      registration: "NW25CAR",
      checkedAt: `${TODAY}T09:00:00Z`,
      insurance: {
        status: "not-insured",
        lastPolicy: null,
        vehicle: { ...VEHICLE, firstRegistered: "2026-11-20" },
      },
    },
  ],
]);

const NOT_INSURED_ROWS: FleetRow[] = [...NOT_INSURED.keys()].map(
  (registration, index) => ({
    line: index + 2,
    submitted: registration,
    extra: [],
    registration,
  }),
);

describe("a vehicle that is not insured", () => {
  const run: ExportRun = { ...RUN, extraColumns: [] };
  const exportedOn = (today: string) => {
    const header = exportHeader(run, TODAY);
    return exportRows(NOT_INSURED_ROWS, NOT_INSURED, run, today).map((cells) =>
      Object.fromEntries(header.map((name, index) => [name, cells[index]])),
    );
  };

  it("gives a lapsed vehicle's last policy in the Insurer to Valid to columns, and the lapse as a date", () => {
    const [lapsed, never, unrecorded] = exportedOn(TODAY);
    expect(lapsed).toMatchObject({
      Outcome: "Not insured",
      Insurer: "Acorn Mutual",
      "Policy number": "POL-2026-11-03",
      "Cover type": "Third Party, Fire and Theft",
      "Valid from": "2026-01-01",
      "Valid to": "2026-11-03",
      Notes: "Lapsed on 2026-11-03",
    });
    expect(never).toMatchObject({
      Outcome: "Not insured",
      Insurer: "",
      "Policy number": "",
      "Valid to": "",
      Notes: "Never insured",
    });
    expect(unrecorded).toMatchObject({
      Outcome: OUTCOME_LABELS["not-yet-on-record"],
      Insurer: "",
      Notes:
        "First registered on 2026-11-20: its insurer has until 2026-12-04 to put the policy on the record",
    });
  });

  it("writes the same file whichever day it is made: dates, never an age", () => {
    // A day, a month and a year after the lapse: an age ("20 days ago") would change; dates do not.
    const later = ["2026-11-04", "2026-12-23", "2027-11-03"].map(
      (day) => exportedOn(day)[0],
    );
    expect(later[1]).toEqual(later[0]);
    expect(later[2]).toEqual(later[0]);
  });
});

/** Words that count from the day a file was made: wrong on any later day it is read. */
const AN_AGE =
  /\bago\b|\byesterday\b|\btoday\b|\btomorrow\b|\b\d+ days?\b|\bin \d+\b/i;

describe("no exported cell holds an age", () => {
  it.each([
    ["the run's rows", ROWS, RESULTS],
    ["vehicles not insured", NOT_INSURED_ROWS, NOT_INSURED],
  ] as const)("%s, with and without compliance", (_name, rows, results) => {
    for (const run of [RUN, complianceRun]) {
      const cells = exportRows(rows, results, run, TODAY).flat();
      expect(cells.filter((cell) => AN_AGE.test(cell))).toEqual([]);
    }
  });

  it("has no column of days counted from the day the file was made", () => {
    expect(
      exportHeader(complianceRun, TODAY).filter((name) =>
        /days to/i.test(name),
      ),
    ).toEqual([]);
  });
});
