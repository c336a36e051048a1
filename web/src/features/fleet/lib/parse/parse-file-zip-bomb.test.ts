// Zip bombs named .xlsx: refused from the zip's directory, or when an entry lies, by inflating it.
import { describe, expect, it } from "vitest";
import { parseFile } from "./parse-file.ts";
import { MAX_UNZIPPED_BYTES } from "./parse-failures.ts";
import { deflatedZeros, zipFile } from "./test-files.ts";

describe("parseFile: zip bombs", () => {
  const sheet = "xl/worksheets/sheet1.xml";

  it.each([
    ["4 GB declared in the central directory", false, 0xfffffffe],
    ["1 TB declared in a zip64 record", true, 2 ** 40],
    ["just over the limit", false, MAX_UNZIPPED_BYTES + 1],
  ])("refuses %s before unpacking", async (_name, zip64, declaredSize) => {
    const bytes = zipFile([
      {
        name: "[Content_Types].xml",
        data: new Uint8Array(10),
        deflated: false,
        declaredSize: 10,
      },
      {
        name: sheet,
        data: deflatedZeros(1024),
        deflated: true,
        declaredSize,
        zip64,
      },
    ]);
    expect(await parseFile("fleet.xlsx", bytes)).toEqual({
      code: "too-many-rows",
      message: expect.stringMatching(/unpacks to more than 200 MB/),
    });
  });

  it("refuses an entry that holds far more than it declares", async () => {
    // 50 MB of zeros in about 50 KB, declared as 1 KB: the reader would decode all 50 MB.
    const bytes = zipFile([
      {
        name: "xl/workbook.xml",
        data: new Uint8Array(10),
        deflated: false,
        declaredSize: 10,
      },
      {
        name: sheet,
        data: deflatedZeros(50 * 1024 * 1024),
        deflated: true,
        declaredSize: 1024,
      },
    ]);
    expect(await parseFile("fleet.xlsx", bytes)).toMatchObject({
      code: "corrupt",
      message: expect.stringMatching(/damaged/),
    });
  });

  it("refuses a directory claiming more entries than the file holds", async () => {
    const bytes = new Uint8Array(
      zipFile([
        {
          name: sheet,
          data: new Uint8Array(4),
          deflated: false,
          declaredSize: 4,
        },
      ]),
    );
    const end = bytes.length - 22;
    new DataView(bytes.buffer).setUint16(end + 8, 5000, true);
    new DataView(bytes.buffer).setUint16(end + 10, 5000, true);
    expect(await parseFile("fleet.xlsx", bytes.buffer)).toMatchObject({
      code: "corrupt",
    });
  });
});
