import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import type { ImportKind } from "@vics/shared/import/rows";
import { FileRefused } from "./file-refused.ts";
import {
  MAX_LINE_CHARS,
  type ReadOptions,
  readImportFile,
} from "./read-rows.ts";

const POLICY_HEADER =
  "registration,policy_number,insurer,cover_type,valid_from,valid_to";

function chunked(bytes: Uint8Array, size = 7): AsyncIterable<Uint8Array> {
  return (async function* () {
    for (let at = 0; at < bytes.length; at += size)
      yield bytes.subarray(at, at + size);
  })();
}

async function readAll<K extends ImportKind>(
  input: string | Uint8Array,
  options: ReadOptions<K>,
  chunkSize?: number,
) {
  const bytes =
    typeof input === "string" ? new TextEncoder().encode(input) : input;
  const reading = readImportFile(chunked(bytes, chunkSize), options);
  const items = [];
  for await (const item of reading.rows) items.push(item);
  return { items, facts: reading.facts() };
}

async function refusal(
  input: string | Uint8Array,
  options: ReadOptions<ImportKind>,
) {
  const error = await readAll(input, options).catch(
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(FileRefused);
  return {
    line: (error as FileRefused).line,
    reason: (error as FileRefused).message,
  };
}

const policies = { kind: "policies" } as const;

describe("reading an import file", () => {
  it("reports each row with the line it starts on, columns in any order, the file's hash", async () => {
    const text = [
      "Valid To,valid_from,Registration,insurer,policy number,cover type,Notes",
      "2026-12-31,2026-01-01,AB12CDE,Northwind,POL-1,Comprehensive,first",
      "",
      '2026-12-31,2026-01-01,CD34EFG,"Acme, ""Mutual""\nLtd",POL-2,Third Party Only,second',
      "2026-12-31,2026-01-01,!!,Acme,POL-3,Comprehensive,bad",
      "",
    ].join("\n");
    const { items, facts } = await readAll(text, policies);
    expect(items.map((item) => [item.line, item.ok])).toEqual([
      [2, true],
      [4, true],
      [6, false],
    ]);
    expect(items[1]).toMatchObject({
      row: { registration: "CD34EFG", insurer: 'Acme, "Mutual"\nLtd' },
    });
    expect(facts).toEqual({
      sha256: createHash("sha256").update(text).digest("hex"),
      bytes: Buffer.byteLength(text),
      dates: "iso",
      ignoredColumns: ["Notes"],
    });
  });

  it("reads CRLF, a UTF-8 byte-order mark, and mixed line ends alike", async () => {
    const text = `\uFEFF${POLICY_HEADER}\r\nAB12CDE,POL-1,N,C,2026-01-01,2026-12-31\r\nCD34EFG,POL-2,N,C,2026-01-01,2026-12-31\nEF56GHI,POL-3,N,C,2026-01-01,2026-12-31`;
    const { items } = await readAll(text, policies, 3);
    expect(items.map((item) => [item.line, item.ok])).toEqual([
      [2, true],
      [3, true],
      [4, true],
    ]);
    expect(items[0]).toMatchObject({ row: { validTo: "2026-12-31" } });
  });

  it("reads UTF-16 with its byte-order mark, as Excel's Unicode Text writes it", async () => {
    const text = `${POLICY_HEADER}\r\nAB12CDE,POL-1,Société Générale,C,2026-01-01,2026-12-31\r\n`;
    const utf16 = new Uint8Array([0xff, 0xfe, ...Buffer.from(text, "utf16le")]);
    const { items } = await readAll(utf16, policies);
    expect(items).toMatchObject([
      { line: 2, ok: true, row: { insurer: "Société Générale" } },
    ]);
  });

  it("refuses a Windows-1252 file read as UTF-8 at its first bad line, and reads it when told", async () => {
    const text = `${POLICY_HEADER}\nAB12CDE,POL-1,Acme,C,2026-01-01,2026-12-31\nCD34EFG,POL-2,Caf\xe9 Mutual,C,2026-01-01,2026-12-31\n`;
    const latin = Uint8Array.from(text, (char) => char.charCodeAt(0));
    expect(await refusal(latin, policies)).toEqual({
      line: 3,
      reason: expect.stringContaining("--encoding windows-1252"),
    });
    const { items } = await readAll(latin, {
      ...policies,
      encoding: "windows-1252",
    });
    expect(items[1]).toMatchObject({ row: { insurer: "Café Mutual" } });
  });

  it("refuses the whole file at an unclosed quote, naming the line it opens on", async () => {
    const text = `${POLICY_HEADER}\nAB12CDE,POL-1,Acme,C,2026-01-01,2026-12-31\nCD34EFG,POL-2,"Acme,C,2026-01-01,2026-12-31\nEF56GHI,POL-3,Acme,C,2026-01-01,2026-12-31\n`;
    expect(await refusal(text, policies)).toEqual({
      line: 3,
      reason: expect.stringContaining("never closed"),
    });
  });

  it("refuses a file with a 10 MB line, naming it, without reading on", async () => {
    const text = `${POLICY_HEADER}\nAB12CDE,POL-1,Acme,C,2026-01-01,2026-12-31\nCD34EFG,POL-2,${"x".repeat(10 * 1024 * 1024)},C,2026-01-01,2026-12-31\nEF56GHI,POL-3,Acme,C,2026-01-01,2026-12-31\n`;
    const { line, reason } = await refusal(text, policies);
    expect(line).toBe(3);
    expect(reason).toContain(`longer than ${MAX_LINE_CHARS / 1024 / 1024} MB`);
  });

  it("refuses a row with a cell too many, and reads on", async () => {
    const text = `${POLICY_HEADER}\nAB12CDE,POL-1,Acme,Ltd,C,2026-01-01,2026-12-31\nCD34EFG,POL-2,Acme,C,2026-01-01,2026-12-31\n`;
    const { items } = await readAll(text, policies);
    expect(items).toMatchObject([
      {
        line: 2,
        ok: false,
        problems: [{ reason: expect.stringContaining("7 cells") }],
      },
      { line: 3, ok: true },
    ]);
  });

  it("refuses a header without a column its kind needs, and says which", async () => {
    expect(
      await refusal("registration,insurer\nAB12CDE,Acme\n", policies),
    ).toEqual({
      line: 1,
      reason: expect.stringContaining(
        "The header has no policy_number, cover_type, valid_from, valid_to column.",
      ),
    });
  });

  it("refuses an empty file, and one that is binary", async () => {
    expect(await refusal("", policies)).toMatchObject({ line: 0 });
    expect(
      await refusal(
        new Uint8Array([0x50, 0x4b, 0x03, 0x04, 0, 0, 0]),
        policies,
      ),
    ).toMatchObject({ line: 1, reason: expect.stringContaining("NUL") });
  });

  it("takes the date format from the file's first line, and refuses one that contradicts --dates", async () => {
    const text = `# dates: DD/MM/YYYY\n${POLICY_HEADER}\nAB12CDE,POL-1,Acme,C,01/02/2026,31/01/2027\n`;
    const { items, facts } = await readAll(text, policies);
    expect(facts.dates).toBe("uk");
    expect(items).toMatchObject([
      { line: 3, ok: true, row: { validFrom: "2026-02-01" } },
    ]);
    expect(await refusal(text, { ...policies, dates: "iso" })).toMatchObject({
      line: 1,
      reason: expect.stringContaining("but --dates says YYYY-MM-DD"),
    });
  });
});

describe("reading an import file in JSON Lines", () => {
  const jsonl = { kind: "policies", format: "jsonl" } as const;
  const policy = (overrides: Record<string, unknown> = {}) =>
    JSON.stringify({
      registration: "ab12 cde",
      "Policy Number": "POL-1",
      insurer: "Northwind",
      cover_type: "Comprehensive",
      valid_from: "2026-02-01",
      valid_to: "2027-01-31",
      ...overrides,
    });

  it("reads one record per line, keys in any case and order, with its line number, CRLF or LF, chunked anywhere", async () => {
    const text = [
      policy(),
      "",
      policy({ "Policy Number": 42, depot: "Leeds" }),
    ].join("\r\n");
    for (const chunkSize of [1, 3, 7, 1000]) {
      const { items, facts } = await readAll(text, jsonl, chunkSize);
      expect(items).toEqual([
        {
          line: 1,
          ok: true,
          row: expect.objectContaining({
            registration: "AB12CDE",
            number: "POL-1",
          }),
        },
        {
          line: 3,
          ok: true,
          row: expect.objectContaining({ number: "42" }),
        },
      ]);
      expect(facts.ignoredColumns).toEqual(["depot"]);
    }
  });

  it("refuses a line that is not an object, a missing field and a nested value, and reads on", async () => {
    const { items } = await readAll(
      [
        "[1, 2]",
        "{not json",
        JSON.stringify({ registration: "AB12CDE" }),
        policy({ insurer: { name: "Northwind" } }),
        policy(),
      ].join("\n"),
      jsonl,
    );
    expect(items.map((item) => [item.line, item.ok])).toEqual([
      [1, false],
      [2, false],
      [3, false],
      [4, false],
      [5, true],
    ]);
    const [notObject, , missing, nested] = items;
    expect(notObject).toMatchObject({
      problems: [{ reason: expect.stringContaining("not a JSON object") }],
    });
    expect(missing).toMatchObject({
      problems: expect.arrayContaining([
        expect.objectContaining({
          column: "insurer",
          reason: expect.stringContaining("The record has no insurer"),
        }),
      ]),
    });
    expect(nested).toMatchObject({
      problems: [{ column: "insurer", value: '{"name":"Northwind"}' }],
    });
  });

  it("refuses the whole file at a 10 MB line, and an empty file", async () => {
    expect(
      await refusal(
        `${policy()}\n"${"x".repeat(MAX_LINE_CHARS + 10)}"\n`,
        jsonl,
      ),
    ).toMatchObject({
      line: 2,
      reason: expect.stringContaining("longer than"),
    });
    expect(await refusal("\n\n", jsonl)).toMatchObject({
      reason: expect.stringContaining("The file is empty"),
    });
  });
});
