import { describe, expect, it } from "vitest";
import { decodedPath, namesDotfile } from "./path-spellings.ts";

describe("decodedPath", () => {
  it.each([
    ["/plain/path", "/plain/path"],
    ["/%2eenv", "/.env"],
    ["/%252eenv", "/.env"],
    ["/%25252e%25252e", "/.."],
    ["/a%2Fb", "/a/b"],
    ["/a%5Cb\\c", "/a/b/c"],
    ["/%61pi", "/api"],
    // Not UTF-8, or not an escape: left as it is, the rest still decoded.
    ["/%ff%2e", "/%ff."],
    ["/%2e%ff/%c3%a9", "/.%ff/é"],
    ["/100%", "/100%"],
  ])("%s reads as %s", (path, decoded) => {
    expect(decodedPath(path)).toBe(decoded);
  });
});

describe("namesDotfile", () => {
  it.each([
    "/.env",
    "/.git/config",
    "/assets/.hidden.js",
    "/%2eenv",
    "/%2Egit%2Fconfig",
    "/%252egit/config",
    "/..%2F..%2Fetc%2Fpasswd",
    "/assets/%5c.env",
    "/%2e%ffenv",
    "/.",
  ])("%s names a dotfile", (path) => {
    expect(namesDotfile(path)).toBe(true);
  });

  it.each([
    "/",
    "/index.html",
    "/assets/index-a1b2c3.js",
    "/vehicle/AB12CDE",
    "/favicon.svg",
    "/a.b/c.d",
  ])("%s does not", (path) => {
    expect(namesDotfile(path)).toBe(false);
  });
});
