// Any spelling of /api or /v1 as the path's first segment (letter case, single and double
// percent-encoding, full-width letters, extra slashes, `;parameters`, dot segments, encoded
// slashes and backslashes) is answered with JSON, never the web app's HTML: a forwarded answer,
// or the proxy's problem with nothing upstream. FUZZ_RUNS cases.
import fc from "fast-check";
import {
  CLIENT_HEADER,
  PROBLEM_CONTENT_TYPE,
  ProblemSchema,
} from "@vics/shared";
import { FUZZ_TEST_TIMEOUT_MS, fuzz } from "@vics/shared/testing/fuzz";
import { describe, expect, it } from "vitest";
import {
  builtWebRoot,
  createTestProxy,
  fakeUpstream,
} from "../../testing/index.ts";
import { looksLikeApi } from "./path-spellings.ts";

const INDEX_HTML = "<!doctype html><title>VICS</title>";
const webRoot = builtWebRoot({ "index.html": INDEX_HTML });

const percent = (char: string) =>
  `%${char.charCodeAt(0).toString(16).padStart(2, "0")}`;

/** One letter of "api" or "v1", in one of the spellings a server might read as it. */
const letter = (char: string) =>
  fc.constantFrom(
    char.toLowerCase(),
    char.toUpperCase(),
    percent(char.toLowerCase()),
    percent(char.toUpperCase()).toUpperCase(),
    `%25${percent(char).slice(1)}`,
    encodeURIComponent(String.fromCharCode(char.charCodeAt(0) + 0xfee0)),
  );

const spelled = (word: string) =>
  fc.tuple(...[...word].map(letter)).map((letters) => letters.join(""));

const before = fc.constantFrom(
  "/",
  "//",
  "///",
  "/./",
  "/%2e/",
  "/x/../",
  "/x/..%2f",
  "/%2e%2e/",
  "/%2f",
  "/%5c",
);
const parameters = fc.constantFrom("", ";x", ";jsessionid=1", "%3bx");
const separator = fc.constantFrom(
  "/",
  "//",
  "%2f",
  "%2F",
  "%5c",
  "%252f",
  "/./",
  "/y/../",
);
const rest = fc.constantFrom(
  "v1/compliance/AB12CDE",
  "v1/vehicle/AB12CDE/insurance",
  "v1/openapi.json",
  "v1/nothing",
  "compliance/AB12CDE",
  "",
);

const lookalikePath = fc
  .tuple(
    before,
    fc.oneof(spelled("api"), spelled("v1")),
    parameters,
    separator,
    rest,
  )
  .map((parts) => parts.join(""));

describe("any spelling of the API's first segment", () => {
  it(
    "reads as the API, and is answered with JSON, never the app's HTML",
    async () => {
      const upstream = fakeUpstream();
      const { app } = createTestProxy({ fetch: upstream.fetch, webRoot });
      const report = await fuzz(
        "proxy: any spelling of /api or /v1",
        lookalikePath,
        async (path) => {
          expect(looksLikeApi(path)).toBe(true);
          const sentBefore = upstream.requests.length;
          const response = await app.request(path, {
            headers: { Accept: "text/html", [CLIENT_HEADER]: "web" },
          });
          const type = response.headers.get("Content-Type") ?? "";
          const text = await response.text();
          expect(text).not.toBe(INDEX_HTML);
          expect(type).toMatch(/^application\/(problem\+)?json/);
          if (response.status === 200) {
            expect(upstream.requests).toHaveLength(sentBefore + 1);
            return "200 forwarded";
          }
          expect(type).toBe(PROBLEM_CONTENT_TYPE);
          expect(upstream.requests).toHaveLength(sentBefore);
          const { code } = ProblemSchema.parse(JSON.parse(text));
          return `${response.status} ${code}`;
        },
      );
      expect(Object.keys(report.outcomes)).toEqual(
        expect.arrayContaining(["404 NOT_FOUND"]),
      );
    },
    FUZZ_TEST_TIMEOUT_MS,
  );
});
