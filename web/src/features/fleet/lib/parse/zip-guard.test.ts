import { describe, expect, it } from "vitest";
import { inspectZip, type ZipEntry } from "./zip-guard.ts";
import { inflatedSizeFailure } from "./zip-inflate-check.ts";
import {
  deflatedZeros,
  randomBytes,
  utf8,
  xlsxFile,
  zipFile,
} from "./test-files.ts";

function entries(bytes: ArrayBuffer): ZipEntry[] {
  const result = inspectZip(new Uint8Array(bytes));
  if ("code" in result) throw new Error(result.message);
  return result;
}

describe("inspectZip", () => {
  it("lists a real workbook's entries with their declared sizes", async () => {
    const listed = entries(await xlsxFile([["Registration"], ["AB12CDE"]]));
    expect(listed.map(({ name }) => name)).toEqual(
      expect.arrayContaining(["xl/workbook.xml", "xl/worksheets/sheet1.xml"]),
    );
    for (const entry of listed) {
      expect(entry.size).toBeGreaterThan(0);
      expect([0, 8]).toContain(entry.method);
    }
  });

  it("reads 64-bit sizes from a zip64 extra field", () => {
    const listed = entries(
      zipFile([
        {
          name: "a.xml",
          data: utf8("<a/>"),
          deflated: false,
          declaredSize: 4,
          zip64: true,
        },
      ]),
    );
    expect(listed).toEqual([
      { name: "a.xml", method: 0, compressedSize: 4, size: 4, localOffset: 0 },
    ]);
  });

  it.each([
    ["no end record", randomBytes(100, 3)],
    [
      "an end record pointing past the file",
      (() => {
        const bytes = new Uint8Array(
          zipFile([
            {
              name: "a.xml",
              data: utf8("<a/>"),
              deflated: false,
              declaredSize: 4,
            },
          ]),
        );
        new DataView(bytes.buffer).setUint32(
          bytes.length - 22 + 16,
          10_000,
          true,
        );
        return bytes;
      })(),
    ],
  ])("fails on %s", (_name, bytes) => {
    expect(inspectZip(bytes)).toMatchObject({ code: "corrupt" });
  });

  it("adds up every entry's declared size against the limit", () => {
    const half = 110 * 1024 * 1024;
    const twoHalves = zipFile([
      {
        name: "a.xml",
        data: new Uint8Array(1),
        deflated: true,
        declaredSize: half,
      },
      {
        name: "b.xml",
        data: new Uint8Array(1),
        deflated: true,
        declaredSize: half,
      },
    ]);
    expect(inspectZip(new Uint8Array(twoHalves))).toMatchObject({
      code: "too-many-rows",
    });
    const oneHalf = zipFile([
      {
        name: "a.xml",
        data: new Uint8Array(1),
        deflated: true,
        declaredSize: half,
      },
    ]);
    expect(inspectZip(new Uint8Array(oneHalf))).toHaveLength(1);
  });
});

describe("inflatedSizeFailure", () => {
  const zeros = deflatedZeros(1024 * 1024);

  it("passes entries that inflate to what they declare", async () => {
    const bytes = new Uint8Array(
      zipFile([
        {
          name: "a.xml",
          data: zeros,
          deflated: true,
          declaredSize: 1024 * 1024,
        },
      ]),
    );
    const listed = inspectZip(bytes) as ZipEntry[];
    expect(await inflatedSizeFailure(bytes, listed)).toBeNull();
  });

  it("fails an entry that inflates past its declared size", async () => {
    const bytes = new Uint8Array(
      zipFile([
        { name: "a.xml", data: zeros, deflated: true, declaredSize: 1000 },
      ]),
    );
    const listed = inspectZip(bytes) as ZipEntry[];
    expect(await inflatedSizeFailure(bytes, listed)).toMatchObject({
      code: "corrupt",
    });
  });

  it("leaves a broken deflate stream to the reader to report", async () => {
    const bytes = new Uint8Array(
      zipFile([
        {
          name: "a.xml",
          data: randomBytes(64, 9),
          deflated: true,
          declaredSize: 1 << 20,
        },
      ]),
    );
    const listed = inspectZip(bytes) as ZipEntry[];
    expect(await inflatedSizeFailure(bytes, listed)).toBeNull();
  });
});
