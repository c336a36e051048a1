import { describe, expect, it } from "vitest";
import { compoundFileFailure, fileExtension, sniffFile } from "./sniff-file.ts";
import { compoundFile, utf8 } from "./test-files.ts";

describe("sniffFile", () => {
  it.each<[string, number[], string]>([
    ["a zip", [0x50, 0x4b, 0x03, 0x04, 0], "zip"],
    ["an empty zip", [0x50, 0x4b, 0x05, 0x06], "zip"],
    [
      "a compound file",
      [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1],
      "compound",
    ],
    ["a PDF", [...utf8("%PDF-1.4")], "binary"],
    ["a PNG", [0x89, 0x50, 0x4e, 0x47, 0x0d], "binary"],
    ["a gzip", [0x1f, 0x8b, 8], "binary"],
    ["text", [...utf8("Registration")], "text"],
    ["a lone P", [0x50], "text"],
  ])("%s", (_name, bytes, kind) => {
    expect(sniffFile(new Uint8Array(bytes))).toBe(kind);
  });
});

describe("fileExtension", () => {
  it.each([
    ["fleet.csv", "csv"],
    ["Fleet.Q3.XLSX", "xlsx"],
    ["fleet", ""],
    [".csv", "csv"],
  ])("%s -> %s", (name, extension) => {
    expect(fileExtension(name)).toBe(extension);
  });
});

describe("compoundFileFailure", () => {
  it.each<[string[], string, string]>([
    [["Root Entry", "EncryptionInfo", "EncryptedPackage"], "xls", "protected"],
    [["Root Entry", "Workbook"], "xls", "not-a-spreadsheet"],
    [["Root Entry", "Book"], "xlsx", "not-a-spreadsheet"],
    [["Root Entry"], "xlsx", "protected"],
    [["Root Entry"], "csv", "not-a-spreadsheet"],
  ])("%j named .%s: %s", (streams, extension, code) => {
    expect(
      compoundFileFailure(new Uint8Array(compoundFile(streams)), extension),
    ).toMatchObject({ code });
  });
});
