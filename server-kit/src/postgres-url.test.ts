import { describe, expect, it } from "vitest";
import { isPostgresUrl, redactedUrl } from "./postgres-url.ts";

describe("isPostgresUrl", () => {
  it.each([
    ["postgres://vics@127.0.0.1:5432/vics", true],
    ["postgresql://vics:pw@db.internal/vics?sslmode=require", true],
    ["mysql://vics@127.0.0.1/vics", false],
    ["postgres:vics@db/vics", false],
    ["postgres://bad host/vics", false],
    ["data/vics.sqlite", false],
    [undefined, false],
  ])("%s: %s", (url, expected) => {
    expect(isPostgresUrl(url)).toBe(expected);
  });
});

describe("redactedUrl", () => {
  it("keeps the user, server and database, never the password or the query", () => {
    expect(
      redactedUrl("postgres://vics:s3cret@db.internal:5432/vics?password=x#y"),
    ).toBe("postgres://vics@db.internal:5432/vics");
  });
});
