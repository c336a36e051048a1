import { describe, expect, it } from "vitest";
import { BUILT_ENCODINGS, chooseEncoding } from "./accept-encoding.ts";

const both = BUILT_ENCODINGS;
const gzipOnly = BUILT_ENCODINGS.filter((e) => e.coding === "gzip");
const chosen = (
  header: string | undefined,
  available: typeof both | typeof gzipOnly = both,
) => chooseEncoding(header, available)?.coding ?? "identity";

describe("chooseEncoding", () => {
  it.each([
    // What browsers send.
    ["gzip, deflate, br, zstd", "br"],
    ["gzip, deflate, br", "br"],
    ["br, gzip", "br"],
    ["gzip, deflate", "gzip"],
    ["GZIP", "gzip"],
    ["x-gzip", "gzip"],
    ["*", "br"],
    // Weights.
    ["br;q=0.5, gzip", "gzip"],
    ["br;q=1.0, gzip;q=0.9", "br"],
    ["gzip;q=0.8, br;q=0.8", "br"],
    ["br;q=0, gzip;q=0", "identity"],
    ["br;q=0, *", "gzip"],
    ["*;q=0", "identity"],
    ["*;q=0, gzip", "gzip"],
    ["gzip;q=0.5, identity", "identity"],
    ["br, br;q=0", "identity"],
    // Nothing asked for, or nothing we have.
    ["", "identity"],
    ["identity", "identity"],
    ["deflate, zstd", "identity"],
    ["brotli, gz", "identity"],
    // A weight that is not one says nothing.
    ["br;q=2, gzip", "gzip"],
    ["br;q=yes", "identity"],
  ])("%j gets %s", (header, coding) => {
    expect(chosen(header)).toBe(coding);
  });

  it("never encodes for a request without Accept-Encoding", () => {
    expect(chosen(undefined)).toBe("identity");
  });

  it("chooses only among the encodings built for the file", () => {
    expect(chosen("br, gzip", gzipOnly)).toBe("gzip");
    expect(chosen("br", gzipOnly)).toBe("identity");
    expect(chooseEncoding("br, gzip", [])).toBeUndefined();
  });
});
