// Hostile input, as the property tests send (docs/reliability.md, section 1): whatever the
// bytes, parseFile answers with a table or a ParseFailure that has words, and never throws.
// Seeded, so a failure replays.
import { describe, expect, it } from "vitest";
import { FLEET_MAX_ROWS, type ParseErrorCode } from "../fleet-types.ts";
import { parseFile } from "./parse-file.ts";
import { concat, randomBytes, utf8, xlsxFile } from "./test-files.ts";

const CODES: ParseErrorCode[] = [
  "not-a-spreadsheet",
  "empty",
  "no-rows",
  "too-many-rows",
  "protected",
  "corrupt",
];

async function expectAnAnswer(name: string, bytes: ArrayBuffer) {
  const result = await parseFile(name, bytes);
  if ("code" in result) {
    expect(CODES).toContain(result.code);
    expect(result.message.length).toBeGreaterThan(20);
  } else {
    expect(result.rows.length).toBeLessThanOrEqual(FLEET_MAX_ROWS);
    expect(result.rows.length).toBeGreaterThan(0);
  }
}

const PREFIXES = [
  new Uint8Array(0),
  new Uint8Array([0x50, 0x4b, 0x03, 0x04]),
  new Uint8Array([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]),
  new Uint8Array([0xef, 0xbb, 0xbf]),
  new Uint8Array([0xff, 0xfe]),
  utf8("Registration,Depot\r\n"),
];
const NAMES = [
  "fleet.csv",
  "fleet.xlsx",
  "fleet.tsv",
  "fleet.txt",
  "fleet.xls",
];

describe("parseFile with random bytes", () => {
  it.each(Array.from({ length: 60 }, (_, seed) => seed + 1))(
    "seed %i",
    async (seed) => {
      const [pick, length] = randomBytes(2, seed * 31);
      const prefix =
        PREFIXES[(pick ?? 0) % PREFIXES.length] ?? new Uint8Array(0);
      const name = NAMES[seed % NAMES.length] ?? "fleet.csv";
      const bytes = concat(prefix, randomBytes((length ?? 0) * 97, seed));
      await expectAnAnswer(name, bytes);
    },
  );
});

describe("parseFile with a real workbook, damaged", () => {
  it.each(Array.from({ length: 30 }, (_, seed) => seed + 1))(
    "seed %i",
    async (seed) => {
      const workbook = new Uint8Array(
        await xlsxFile([
          ["Registration", "Depot"],
          ["AB12CDE", "Leeds"],
          ["CD34EFG", "York"],
        ]),
      );
      // Overwrite 1 to 8 bytes at seeded places: headers, directory and data all get hit.
      const noise = randomBytes(2 + (seed % 8) * 2, seed);
      for (let index = 0; index < noise.length; index += 2) {
        const at = ((noise[index] ?? 0) * 257 + seed * 13) % workbook.length;
        workbook[at] = noise[index + 1] ?? 0;
      }
      await expectAnAnswer("fleet.xlsx", workbook.buffer);
    },
  );
});
