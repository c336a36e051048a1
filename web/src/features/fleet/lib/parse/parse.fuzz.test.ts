// Property tests of the fleet list parser (parseFile, parsePaste) over hostile uploads and
// pastes, with @vics/shared/testing/fuzz: random bytes under every name, text with huge lines
// and every encoding, damaged real workbooks, zip bombs named .xlsx. Whatever the input, the
// answer is a table within the limits or a ParseFailure whose message says what to do; the
// parser never throws, and a case that takes longer than the per-case timeout fails the
// property (an await that never settles through fast-check's timeout, a loop that never
// ends through the hang guard). FUZZ_RUNS cases per property.
import fc from "fast-check";
import {
  FUZZ_TEST_TIMEOUT_MS,
  fuzz,
  registrationText,
  shorten,
} from "@vics/shared/testing/fuzz";
import { beforeAll, describe, expect, it } from "vitest";
import {
  FLEET_MAX_ROWS,
  type ParseErrorCode,
  type ParseFailure,
  type SourceTable,
} from "../fleet-types.ts";
import {
  MAX_CELL_CHARS,
  MAX_COLUMNS,
  MAX_LINE_CHARS,
  parseFailures,
} from "./parse-failures.ts";
import { parseFile } from "./parse-file.ts";
import { parsePaste } from "./parse-paste.ts";
import { deflatedZeros, utf8, xlsxFile, zipFile } from "./test-files.ts";

const CODES: ParseErrorCode[] = [
  "not-a-spreadsheet",
  "empty",
  "no-rows",
  "too-many-rows",
  "protected",
  "corrupt",
];
// The catch-all for a reader that threw: still an answer, but the report counts it apart.
const UNREADABLE = parseFailures.unreadable("file").message;

/** A table within the limits, or a failure a person can act on; the outcome for the report. */
/** `sharedLines`: a paste, where registrations pasted on one line share its number. */
function expectAnAnswer(
  result: SourceTable | ParseFailure,
  source: string,
  sharedLines = false,
): string {
  if ("code" in result) {
    expect(CODES).toContain(result.code);
    // A sentence that says what to do, never a code or a stack.
    expect(result.message).toMatch(/^[A-Z"].{20,}[.)]$/s);
    expect(result.message).not.toMatch(/Error|undefined|NaN|\bat .+:\d+/);
    return result.message === UNREADABLE
      ? `${result.code} (a reader threw)`
      : result.code;
  }
  expect(result.source).toBe(source);
  expect(result.rows.length).toBeGreaterThan(0);
  expect(result.rows.length).toBeLessThanOrEqual(FLEET_MAX_ROWS);
  expect(result.columnCount).toBeGreaterThan(0);
  expect(result.columnCount).toBeLessThanOrEqual(MAX_COLUMNS);
  if (result.header !== null)
    expect(result.header).toHaveLength(result.columnCount);
  let line = 0;
  for (const row of result.rows) {
    // Rows in order, each numbered after the one before, no wider than the table.
    if (sharedLines) expect(row.line).toBeGreaterThanOrEqual(line);
    else expect(row.line).toBeGreaterThan(line);
    line = row.line;
    expect(row.cells.length).toBeLessThanOrEqual(result.columnCount);
    for (const cell of row.cells) {
      expect(typeof cell).toBe("string");
      expect(cell.length).toBeLessThanOrEqual(MAX_CELL_CHARS);
    }
  }
  return result.header === null ? "table" : "table with a header";
}

const arrayBuffer = (bytes: Uint8Array): ArrayBuffer =>
  bytes.buffer.slice(
    bytes.byteOffset,
    bytes.byteOffset + bytes.byteLength,
  ) as ArrayBuffer;

const fileName = fc.oneof(
  {
    weight: 8,
    arbitrary: fc.constantFrom(
      "fleet.csv",
      "fleet.xlsx",
      "fleet.tsv",
      "fleet.txt",
      "fleet.xls",
      "FLEET.CSV",
    ),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      "fleet",
      ".csv",
      "fleet.xlsx.exe",
      "fleet.pdf",
      "fleet.csv ",
      "fleet.",
    ),
  },
  {
    weight: 1,
    arbitrary: fc
      .tuple(
        fc.string({ unit: "binary", maxLength: 20 }),
        fc.constantFrom(".csv", ".xlsx"),
      )
      .map(([stem, extension]) => stem + extension),
  },
);

/** What a file may start with, so random bytes reach each reader and not only the first. */
const PREFIXES = [
  [],
  [0x50, 0x4b, 0x03, 0x04], // zip
  [0x50, 0x4b, 0x05, 0x06], // empty zip
  [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1], // OLE compound file
  [0xef, 0xbb, 0xbf], // UTF-8 BOM
  [0xff, 0xfe], // UTF-16 LE BOM
  [0xfe, 0xff], // UTF-16 BE BOM
  [...utf8("Registration,Depot\r\n")],
  [0x25, 0x50, 0x44, 0x46, 0x2d], // %PDF-
].map((bytes) => new Uint8Array(bytes));

describe("parseFile over random bytes", () => {
  it(
    "answers a table or a failure with words, under any name, whatever the bytes",
    async () => {
      const report = await fuzz(
        "web: parseFile, random bytes",
        fc.record({
          name: fileName,
          prefix: fc.constantFrom(...PREFIXES),
          bytes: fc.uint8Array({ maxLength: 4_096 }),
        }),
        async ({ name, prefix, bytes }) => {
          const file = new Uint8Array(prefix.length + bytes.length);
          file.set(prefix);
          file.set(bytes, prefix.length);
          return expectAnAnswer(await parseFile(name, arrayBuffer(file)), name);
        },
        {
          examples: [
            // One deterministic large case: 10 MB of random bytes named .csv.
            {
              name: "fleet.csv",
              prefix: new Uint8Array(0),
              bytes:
                fc.sample(
                  fc.uint8Array({ minLength: 10 << 20, maxLength: 10 << 20 }),
                  { numRuns: 1, seed: 9 },
                )[0] ?? new Uint8Array(0),
            },
          ],
          describe: ({ name, prefix, bytes }) =>
            `${JSON.stringify(name)}: ${prefix.length + bytes.length} bytes, starting ${Buffer.from([...prefix, ...bytes.subarray(0, 12)]).toString("hex")}`,
        },
      );
      expect(Object.keys(report.outcomes)).toEqual(
        expect.arrayContaining(["not-a-spreadsheet", "corrupt"]),
      );
    },
    FUZZ_TEST_TIMEOUT_MS,
  );
});

/** A cell as a spreadsheet program might write it: plain, quoted, with separators inside. */
const cell = fc.oneof(
  { weight: 4, arbitrary: registrationText() },
  { weight: 2, arbitrary: fc.string({ maxLength: 12 }) },
  {
    weight: 1,
    arbitrary: fc
      .string({ maxLength: 12 })
      .map((text) => `"${text.replaceAll('"', '""')}"`),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      '"',
      '""',
      '"a,b"',
      "\r",
      "\n",
      "\u0000",
      "=1+1",
      "",
    ),
  },
);

const separator = fc.constantFrom(",", ";", "\t", "|");
const lineBreak = fc.constantFrom("\n", "\r\n", "\r");

type Encoding = "utf-8" | "utf-8 with BOM" | "utf-16le" | "windows-1252";

function encode(text: string, encoding: Encoding): Uint8Array {
  switch (encoding) {
    case "utf-8":
      return utf8(text);
    case "utf-8 with BOM":
      return new Uint8Array([0xef, 0xbb, 0xbf, ...utf8(text)]);
    case "utf-16le": {
      const bytes = new Uint8Array(2 + text.length * 2);
      bytes.set([0xff, 0xfe]);
      for (let index = 0; index < text.length; index++)
        new DataView(bytes.buffer).setUint16(
          2 + index * 2,
          text.charCodeAt(index),
          true,
        );
      return bytes;
    }
    case "windows-1252":
      return Uint8Array.from(text, (char) => char.charCodeAt(0) & 0xff);
  }
}

/** Text lists: rows of cells, any separators and line breaks, and now and then a huge line. */
const textList = fc.record({
  name: fc.constantFrom("fleet.csv", "fleet.tsv", "fleet.txt", "fleet.xlsx"),
  text: fc.oneof(
    {
      weight: 8,
      arbitrary: fc
        .tuple(
          fc.array(fc.array(cell, { minLength: 1, maxLength: 6 }), {
            minLength: 0,
            maxLength: 30,
          }),
          separator,
          lineBreak,
        )
        .map(([rows, between, newline]) =>
          rows.map((cells) => cells.join(between)).join(newline),
        ),
    },
    {
      // A line past MAX_LINE_CHARS, before, between or after real rows.
      weight: 1,
      arbitrary: fc
        .tuple(
          fc.constantFrom("A", "AB12CDE,", '"', ",", "\u00e9"),
          fc.integer({ min: MAX_LINE_CHARS - 10, max: MAX_LINE_CHARS * 2 }),
          fc.constantFrom("", "Registration\n", "AB12CDE\nCD34EFG\n"),
        )
        .map(
          ([piece, length, before]) =>
            before +
            piece.repeat(Math.ceil(length / piece.length)) +
            "\nAB12CDE",
        ),
    },
  ),
  encoding: fc.constantFrom<Encoding>(
    "utf-8",
    "utf-8 with BOM",
    "utf-16le",
    "windows-1252",
  ),
});

describe("parseFile over text lists", () => {
  it(
    "reads rows or says which line is wrong, in every encoding, with huge lines",
    async () => {
      const report = await fuzz(
        "web: parseFile, text lists",
        textList,
        async ({ name, text, encoding }) =>
          expectAnAnswer(
            await parseFile(name, arrayBuffer(encode(text, encoding))),
            name,
          ),
        {
          examples: [
            // One line of 10 MB, and 100,001 rows: the deterministic huge cases.
            {
              name: "fleet.csv",
              text: "AB12CDE".repeat(1_500_000),
              encoding: "utf-8",
            },
            {
              name: "fleet.csv",
              text: `Registration\n${"AB12CDE\n".repeat(FLEET_MAX_ROWS + 1)}`,
              encoding: "utf-8",
            },
          ],
          describe: ({ name, text, encoding }) =>
            `${name} (${encoding}): ${shorten(JSON.stringify(text), 100)}`,
        },
      );
      expect(Object.keys(report.outcomes)).toEqual(
        expect.arrayContaining(["table", "not-a-spreadsheet", "too-many-rows"]),
      );
    },
    FUZZ_TEST_TIMEOUT_MS,
  );
});

describe("parseFile over damaged workbooks and zip bombs", () => {
  let workbook: Uint8Array;
  beforeAll(async () => {
    workbook = new Uint8Array(
      await xlsxFile([
        ["Registration", "Depot"],
        ["AB12CDE", "Leeds"],
        ["CD34EFG", "York"],
        ["EF56GHI", "Hull"],
      ]),
    );
  });

  const SHEET = "xl/worksheets/sheet1.xml";
  const damage = fc.oneof(
    {
      weight: 4,
      arbitrary: fc
        .array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), {
          minLength: 1,
          maxLength: 16,
        })
        .map((writes) => ({ kind: "bytes overwritten" as const, writes })),
    },
    {
      weight: 1,
      arbitrary: fc.nat().map((at) => ({ kind: "cut short" as const, at })),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.nat(), fc.uint8Array({ minLength: 1, maxLength: 64 }))
        .map(([at, bytes]) => ({ kind: "bytes inserted" as const, at, bytes })),
    },
    {
      // A zip made by hand: entries whose directory says what it likes.
      weight: 2,
      arbitrary: fc
        .array(
          fc.record({
            name: fc.constantFrom(
              SHEET,
              "xl/workbook.xml",
              "[Content_Types].xml",
              "docProps/app.xml",
              "../../evil",
            ),
            size: fc.integer({ min: 0, max: 64 * 1024 }),
            declaredSize: fc.oneof(
              fc.integer({ min: 0, max: 1 << 20 }),
              fc.constantFrom(0xfffffffe, 2 ** 40, 200 * 1024 * 1024 + 1),
            ),
            deflated: fc.boolean(),
            zip64: fc.boolean(),
          }),
          { minLength: 1, maxLength: 4 },
        )
        .map((entries) => ({ kind: "hand-made zip" as const, entries })),
    },
  );

  it(
    "answers a table or a failure with words, and never unpacks a bomb",
    async () => {
      const report = await fuzz(
        "web: parseFile, damaged workbooks and zip bombs",
        damage,
        async (change) => {
          let bytes: Uint8Array;
          switch (change.kind) {
            case "bytes overwritten":
              bytes = workbook.slice();
              for (const [at, value] of change.writes)
                bytes[at % bytes.length] = value;
              break;
            case "cut short":
              bytes = workbook.slice(0, change.at % workbook.length);
              break;
            case "bytes inserted": {
              const at = change.at % workbook.length;
              bytes = new Uint8Array([
                ...workbook.subarray(0, at),
                ...change.bytes,
                ...workbook.subarray(at),
              ]);
              break;
            }
            case "hand-made zip":
              bytes = new Uint8Array(
                zipFile(
                  change.entries.map((entry) => ({
                    name: entry.name,
                    data: entry.deflated
                      ? deflatedZeros(entry.size)
                      : new Uint8Array(entry.size),
                    deflated: entry.deflated,
                    declaredSize: entry.declaredSize,
                    zip64: entry.zip64,
                  })),
                ),
              );
              break;
          }
          return `${change.kind}: ${expectAnAnswer(
            await parseFile("fleet.xlsx", arrayBuffer(bytes)),
            "fleet.xlsx",
          )}`;
        },
        {
          examples: [
            // The classic bombs: 50 MB of zeros declared as 1 KB, and 4 GB declared outright.
            {
              kind: "hand-made zip",
              entries: [
                {
                  name: SHEET,
                  size: 50 * 1024 * 1024,
                  declaredSize: 1024,
                  deflated: true,
                  zip64: false,
                },
              ],
            },
            {
              kind: "hand-made zip",
              entries: [
                {
                  name: SHEET,
                  size: 1024,
                  declaredSize: 0xfffffffe,
                  deflated: true,
                  zip64: false,
                },
              ],
            },
          ],
          describe: (change) =>
            change.kind === "hand-made zip"
              ? `hand-made zip: ${JSON.stringify(change.entries)}`
              : shorten(JSON.stringify(change), 160),
        },
      );
      expect(Object.keys(report.outcomes)).toEqual(
        expect.arrayContaining([
          "hand-made zip: too-many-rows",
          "hand-made zip: corrupt",
        ]),
      );
    },
    FUZZ_TEST_TIMEOUT_MS,
  );
});

describe("parsePaste over any text", () => {
  it(
    "answers rows numbered by their line in the paste, or a failure with words",
    async () => {
      const report = await fuzz(
        "web: parsePaste",
        fc.oneof(
          {
            weight: 6,
            arbitrary: fc
              .tuple(
                fc.array(registrationText(), { maxLength: 40 }),
                fc.array(
                  fc.constantFrom(
                    "\n",
                    "\r\n",
                    "\r",
                    ",",
                    ";",
                    "\t",
                    " , ",
                    "\n\n",
                  ),
                  {
                    minLength: 40,
                    maxLength: 40,
                  },
                ),
              )
              .map(([items, separators]) =>
                items
                  .map((item, index) => item + (separators[index] ?? ""))
                  .join(""),
              ),
          },
          {
            weight: 2,
            arbitrary: fc.string({ unit: "binary", maxLength: 200 }),
          },
          {
            weight: 1,
            arbitrary: fc.string({
              unit: fc.constantFrom(",", ";", "\t", "\n", " "),
              maxLength: 20,
            }),
          },
        ),
        (text) => {
          const result = parsePaste(text);
          if ("code" in result)
            return expectAnAnswer(result, "Pasted list", true);
          expectAnAnswer(result, "Pasted list", true);
          // Each row is text of the line it is numbered by, trimmed: nothing made up.
          const lines = text.split(/\r\n|\r|\n/);
          for (const row of result.rows) {
            expect(row.cells).toHaveLength(1);
            const cell = row.cells[0] ?? "";
            expect(cell).toBe(cell.trim());
            expect(cell).not.toBe("");
            expect(lines[row.line - 1]).toContain(cell);
          }
          return "table";
        },
        {
          examples: [
            "AB12CDE\n".repeat(FLEET_MAX_ROWS + 1),
            `${"A".repeat(10 * 1024 * 1024)}\nAB12CDE`,
          ],
          describe: (text) => shorten(JSON.stringify(text), 100),
        },
      );
      expect(Object.keys(report.outcomes)).toEqual(
        expect.arrayContaining(["table", "empty", "too-many-rows"]),
      );
    },
    FUZZ_TEST_TIMEOUT_MS,
  );
});
