import { describe, expect, it } from "vitest";
import { decodedPath, looksLikeApi, namesDotfile } from "./path-spellings.ts";

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

describe("looksLikeApi", () => {
  it.each([
    "/api",
    "/api/",
    "/api/v1/compliance/AB12CDE",
    "/API/v1",
    "/Api/V1/openapi.json",
    "/api%2fv1/compliance/AB12CDE",
    "/api%2Fv1/compliance/AB12CDE",
    "/api%5Cv1/compliance/AB12CDE",
    "/api\\v1",
    "//api/v1/compliance/AB12CDE",
    "///api/v1",
    "/api;x/v1/compliance/AB12CDE",
    "/api;jsessionid=1",
    "/%61pi/v1/compliance/AB12CDE",
    "/%2561pi/v1",
    "/%41%50%49/v1",
    "/api/./v1",
    "/./api/v1",
    "/api/v1/../v1",
    "/x/../api/v1",
    "/%2e%2e/api/v1",
    "/%2e/api",
    "/%EF%BD%81%EF%BD%90%EF%BD%89/v1",
    "/api%EF%BC%8Fv1",
    "/api%20/v1",
    "/api%00/v1",
    "/a%E2%80%8Bpi/v1",
    "/v1",
    "/v1/compliance/AB12CDE",
    "/V1/compliance/AB12CDE",
    "//v1/openapi.json",
    "/v1%2fcompliance",
    // As written, it starts with the API, whatever `..` would make of it.
    "/api/%2F.%2e/%2F",
    "/api/..%2Fvehicle",
  ])("%s reads as the API", (path) => {
    expect(looksLikeApi(path)).toBe(true);
  });

  it.each([
    "/",
    "/index.html",
    "/vehicle/AB12CDE",
    "/apiary",
    "/api.json",
    "/v1beta/notes",
    "/v2/compliance",
    "/fleet/api/v1",
    "/assets/api",
    "/x/../vehicle/api",
    "/%ff",
  ])("%s does not", (path) => {
    expect(looksLikeApi(path)).toBe(false);
  });
});
