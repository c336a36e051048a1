import { describe, expect, it } from "vitest";
import { CLIENT_HEADER } from "@vics/shared";
import {
  builtWebRoot,
  createTestProxy,
  fakeUpstream,
} from "../../testing/index.ts";

/**
 * The security headers, on every kind of answer the proxy gives: the app's pages and
 * files, forwarded answers, and each of its own refusals. (The e2e suite proves the built app
 * runs under the policy with no violation: e2e/src/csp.spec.ts.)
 */

const web = { [CLIENT_HEADER]: "web" };

const ANSWERS: Array<[string, string, RequestInit]> = [
  ["the app", "/", {}],
  ["a deep link", "/fleet/runs/abc", {}],
  ["a hashed asset", "/assets/index-a1b2c3.js", {}],
  ["a missing asset (404)", "/assets/nope.js", {}],
  ["a forwarded answer", "/api/v1/compliance/AB12CDE", { headers: web }],
  ["the OpenAPI copy", "/api/v1/openapi.json", { headers: web }],
  [
    "an invalid registration (400)",
    "/api/v1/compliance/..%2Fx",
    { headers: web },
  ],
  ["no client header (403)", "/api/v1/compliance/AB12CDE", {}],
  [
    "a cross-site request (403)",
    "/api/v1/compliance/AB12CDE",
    { headers: { ...web, "Sec-Fetch-Site": "cross-site" } },
  ],
  ["an unknown API path (404)", "/api/v1/keys", { headers: web }],
  [
    "a wrong method (405)",
    "/api/v1/compliance/AB12CDE",
    { method: "DELETE", headers: web },
  ],
  ["another host (421)", "/", { headers: { Host: "rebind.evil.example" } }],
];

describe("every answer carries the security headers", () => {
  it.each(ANSWERS)("%s", async (_case, path, init) => {
    const { proxy } = createTestProxy({
      fetch: fakeUpstream().fetch,
      webRoot: builtWebRoot(),
    });
    const response = await proxy.request(path, init);
    const csp = response.headers.get("Content-Security-Policy") ?? "";
    const directives = new Map(
      csp.split(";").map((directive) => {
        const [name = "", ...values] = directive.trim().split(/\s+/);
        return [name, values.join(" ")];
      }),
    );
    expect(directives.get("default-src")).toBe("'self'");
    expect(directives.get("script-src")).toBe("'self'");
    expect(directives.get("style-src")).toBe("'self'");
    expect(directives.get("connect-src")).toBe("'self'");
    expect(directives.get("object-src")).toBe("'none'");
    expect(directives.get("base-uri")).toBe("'self'");
    expect(directives.get("form-action")).toBe("'self'");
    expect(directives.get("frame-ancestors")).toBe("'none'");
    // Decision 016: the XLSX unzipper's workers; nothing else beyond the origin.
    expect(directives.get("worker-src")).toBe("'self' blob:");
    expect(csp).not.toMatch(/unsafe-|\*|https?:|data:.*script/);
    expect(response.headers.get("X-Content-Type-Options")).toBe("nosniff");
    expect(response.headers.get("Referrer-Policy")).toBe("no-referrer");
    expect(response.headers.get("X-Frame-Options")).toBe("DENY");
    expect(response.headers.get("Cross-Origin-Resource-Policy")).toBe(
      "same-origin",
    );
    expect(response.headers.get("Cross-Origin-Opener-Policy")).toBe(
      "same-origin",
    );
    expect(response.headers.has("X-Powered-By")).toBe(false);
  });
});
