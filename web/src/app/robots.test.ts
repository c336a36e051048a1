// web/public/robots.txt, which the build copies to the web root and the proxy serves as
// text/plain (proxy/src/gateway/static/static-site.ts): a staff tool, so no crawler may take anything.
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";

const robots = readFileSync(
  resolve(import.meta.dirname, "../../public/robots.txt"),
  "utf8",
);

/** The robots.txt rules (RFC 9309), comments and blank lines left out. */
const rules = robots
  .split("\n")
  .map((line) => line.replace(/#.*/, "").trim())
  .filter((line) => line !== "");

describe("robots.txt", () => {
  it("tells every crawler to take nothing", () => {
    expect(rules).toEqual(["User-agent: *", "Disallow: /"]);
  });
});
