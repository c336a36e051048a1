import { describe, expect, it } from "vitest";
import { decodeText, textProblem } from "./decode-text.ts";
import { randomBytes, utf8 } from "./test-files.ts";

describe("decodeText", () => {
  it.each<[string, number[], string]>([
    ["UTF-8, BOM dropped", [0xef, 0xbb, 0xbf, ...utf8("£5 Café")], "£5 Café"],
    ["UTF-8 without a BOM", [...utf8("£5")], "£5"],
    ["Windows-1252", [0xa3, 0x35, 0x20, 0x43, 0x61, 0x66, 0xe9], "£5 Café"],
    ["UTF-16 LE with a BOM", [0xff, 0xfe, 0xa3, 0, 0x35, 0], "£5"],
    ["UTF-16 BE with a BOM", [0xfe, 0xff, 0, 0xa3, 0, 0x35], "£5"],
  ])("%s", (_name, bytes, text) => {
    expect(decodeText(new Uint8Array(bytes))).toBe(text);
  });
});

describe("textProblem", () => {
  it.each<[string, string, ReturnType<typeof textProblem>]>([
    ["a list", "Registration\r\nAB12CDE\r\n", null],
    [
      "a stray control character in a long list",
      "AB12CDE\n".repeat(20) + "\u0007",
      null,
    ],
    ["a NUL", "AB12CDE\u0000", { kind: "binary" }],
    [
      "control characters throughout",
      "A\u0001B\u0002C\u0003",
      { kind: "binary" },
    ],
    [
      "a line of 100,001 characters",
      "ok\r\n" + "x".repeat(100_001),
      { kind: "long-line", line: 2 },
    ],
    ["lines of 100,000", ("x".repeat(100_000) + "\n").repeat(2), null],
  ])("%s", (_name, text, problem) => {
    expect(textProblem(text)).toEqual(problem);
  });

  it("calls random bytes binary however they decode", () => {
    const bytes = randomBytes(4096, 42);
    expect(textProblem(decodeText(bytes))).toEqual({ kind: "binary" });
  });
});
