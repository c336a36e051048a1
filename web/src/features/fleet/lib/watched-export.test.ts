import Papa from "papaparse";
import readXlsxFile from "read-excel-file/node";
import { describe, expect, it } from "vitest";
import { buildWatchedFile } from "./export/watched-file.ts";
import { XLSX_MEDIA_TYPE } from "./export/to-xlsx.ts";
import {
  lapsedVan,
  motExpiredTruck,
  unknownCar,
  vanLapse,
  watchedVehicle,
} from "../testing/watched-fixtures.ts";
import {
  watchedExportHeader,
  watchedExportKinds,
  watchedExportRows,
} from "./watched-export.ts";
import { watchedEntries } from "./watched-view.ts";

const COLUMNS = ["Driver", "Status", "Registration"];

/** Read back as a spreadsheet would: BOM off, CRLF rows, quotes undone. */
async function readBack(file: Blob): Promise<string[][]> {
  // Blob.text() would drop the BOM: read it with the bytes it starts with.
  const csv = new TextDecoder("utf-8", { ignoreBOM: true }).decode(
    await file.arrayBuffer(),
  );
  expect(csv.startsWith("\uFEFF")).toBe(true);
  const { data, errors } = Papa.parse<string[]>(csv.slice(1), {
    delimiter: ",",
    newline: "\r\n",
    skipEmptyLines: true,
  });
  expect(errors).toEqual([]);
  return data;
}

const fined = watchedVehicle({
  registration: "FN66FIN",
  // A team's cell that a spreadsheet would run as a formula.
  cells: ['=HYPERLINK("http://x")', "-5+5", "FN66 FIN"],
  checkedAt: "2026-06-10T05:00:00.000Z",
  facts: {
    found: true,
    insurance: {
      status: "insured",
      policy: {
        number: "POL-3",
        insurer: "Acorn",
        validFrom: "2026-01-01",
        validTo: "2026-12-31",
      },
    },
    mot: { status: "valid", expiry: "2027-03-01" },
    tax: { status: "sorn", dueDate: null },
    fines: { count: 2, totalPence: 12_000 },
  },
});

describe("a saved fleet's export", () => {
  it("names a team's column that is also one of ours so that each name is one column", () => {
    expect(watchedExportHeader(COLUMNS)).toEqual([
      "Registration",
      "Driver",
      "Status (your list)",
      "Registration (your list)",
      "Status",
      "Needs action",
      "Insurer",
      "Policy number",
      "Insured until",
      "MOT",
      "MOT expiry",
      "Road tax",
      "Tax due",
      "Outstanding fines",
      "Fines total",
      "Open alerts",
      "Checked at (UK time)",
      "Unknown since (UK time)",
    ]);
    expect(watchedExportHeader([], "2026-11-24").at(-1)).toBe(
      "Changes since 2026-11-24",
    );
  });

  it("renames only a team's column that clashes with this file's own, not the results export's", () => {
    const header = watchedExportHeader(["Make", "Outcome", "Valid to", "MOT"]);
    expect(header.slice(1, 5)).toEqual([
      "Make",
      "Outcome",
      "Valid to",
      "MOT (your list)",
    ]);
  });

  it("types its own columns for Excel: dates, counts and the fines total as money", () => {
    const header = watchedExportHeader(["Driver"], "2026-11-24");
    const kinds = watchedExportKinds(["Driver"], "2026-11-24");
    expect(kinds).toHaveLength(header.length);
    const kindOf = (name: string) => kinds[header.indexOf(name)];
    expect(kindOf("Driver")).toBe("user");
    expect(kindOf("Insured until")).toBe("date");
    expect(kindOf("MOT expiry")).toBe("date");
    expect(kindOf("Tax due")).toBe("date");
    expect(kindOf("Outstanding fines")).toBe("number");
    expect(kindOf("Fines total")).toBe("money");
    expect(kindOf("Open alerts")).toBe("text");
  });

  it("writes each vehicle's status, facts and open alerts in words, dates as dates and times in UK time", () => {
    const rows = watchedExportRows(
      watchedEntries([fined, lapsedVan, unknownCar, motExpiredTruck]),
      ["Driver"],
    );
    const header = watchedExportHeader(["Driver"]);
    const byRegistration = Object.fromEntries(
      rows.map((row) => [
        row[0],
        Object.fromEntries(header.map((name, i) => [name, row[i]])),
      ]),
    );
    expect(Object.keys(byRegistration)).toEqual([
      "LP08 SED",
      "ER19 ERR",
      "MT15 EXP",
      "FN66 FIN",
    ]);
    expect(byRegistration["LP08 SED"]).toMatchObject({
      Driver: "Lee",
      Status: "Not insured",
      "Needs action": "Yes",
      // The policy that lapsed, from its last answer: with whom, which and until when.
      Insurer: "Northwind Mutual",
      "Policy number": "POL-9",
      "Insured until": "2026-11-07",
      "Open alerts": "Not insured: policy POL-9 lapsed on 7 November 2026",
      "Checked at (UK time)": "2026-11-27 06:00",
      "Unknown since (UK time)": "",
    });
    expect(byRegistration["ER19 ERR"]).toMatchObject({
      Status: "Unknown (no answer yet)",
      "Unknown since (UK time)": "2026-11-27 06:00",
    });
    expect(byRegistration["MT15 EXP"]).toMatchObject({
      Status: "Insured",
      "Needs action": "Yes",
      "Open alerts": "MOT expired on 1 October 2026",
    });
    // 05:00 UTC in June is 06:00 in London.
    expect(byRegistration["FN66 FIN"]).toMatchObject({
      Status: "Insured",
      "Needs action": "No",
      Insurer: "Acorn",
      "Policy number": "POL-3",
      "Insured until": "2026-12-31",
      MOT: "Valid",
      "MOT expiry": "2027-03-01",
      "Road tax": "SORN",
      "Tax due": "",
      "Outstanding fines": "2",
      "Fines total": "£120.00",
      "Checked at (UK time)": "2026-06-10 06:00",
    });
  });

  it("says what moved since the date asked, in words", () => {
    const moved = {
      ...lapsedVan,
      changes: [
        vanLapse,
        {
          at: "2026-11-08T06:00:00.000Z",
          area: "tax" as const,
          before: null,
          after: { status: "taxed", dueDate: "2027-01-01" },
        },
      ],
    };
    const [row] = watchedExportRows(watchedEntries([moved]), [], "2026-11-01");
    expect(row?.at(-1)).toBe(
      "Insurance: from Insured by Northwind Mutual (policy POL-9) until 7 November 2026 to Not insured: no policy on record (seen 8 November 2026 at 06:00); " +
        "Road tax: first seen, Taxed until 1 January 2027 (seen 8 November 2026 at 06:00)",
    );
  });

  it("makes a CSV with no cell a spreadsheet would run as a formula, and an Excel file", async () => {
    const entries = watchedEntries([fined]);
    const fleet = { name: "Vans", columns: COLUMNS };
    const back = await readBack(
      await buildWatchedFile({ format: "csv", fleet, entries }),
    );
    expect(back[1]?.slice(0, 4)).toEqual([
      "FN66 FIN",
      '\'=HYPERLINK("http://x")',
      "'-5+5",
      "FN66 FIN",
    ]);
    const workbook = await buildWatchedFile({
      format: "xlsx",
      fleet,
      entries,
    });
    expect(workbook.type).toBe(XLSX_MEDIA_TYPE);
    // Read back as a second program would: dates are dates, the fines a sum of money.
    const [sheet] = await readXlsxFile(
      Buffer.from(await workbook.arrayBuffer()),
    );
    expect(sheet?.sheet).toBe("Vans");
    const header = watchedExportHeader(COLUMNS);
    expect(sheet?.data[0]).toEqual(header);
    const row = sheet?.data[1] ?? [];
    const cell = (name: string) => row[header.indexOf(name)];
    expect(cell("Insured until")).toEqual(new Date("2026-12-31T00:00:00.000Z"));
    expect(cell("Insured until")).toBeInstanceOf(Date);
    expect(cell("MOT expiry")).toBeInstanceOf(Date);
    expect(cell("Outstanding fines")).toBe(2);
    expect(cell("Fines total")).toBe(120);
    // The team's cells are still text, never a formula.
    expect(cell("Driver")).toBe('=HYPERLINK("http://x")');
  });
});
