// The proxy's edges, as a property: any text at all in a registration's place in
// the path is the proxy's 400 (nothing upstream), a 404 when the text changed the route, or
// a 200 for which only a normalised plate went upstream. FUZZ_RUNS cases per route and form.
import fc from "fast-check";
import { FUZZ_TEST_TIMEOUT_MS, fuzz } from "@vics/shared/testing/fuzz";
import { describe, expect, it } from "vitest";
import { createTestProxy, fakeUpstream } from "../../testing/index.ts";

const FORWARDED_PATH =
  /^\/v1\/(?:compliance\/[A-Z0-9]{2,7}|vehicle\/[A-Z0-9]{2,7}\/insurance)$/;

const ROUTES = [
  ["compliance", (text: string) => `/api/v1/compliance/${text}`],
  ["insurance", (text: string) => `/api/v1/vehicle/${text}/insurance`],
] as const;

// As sent on the wire: escaped, or as it is (fetch and the URL parser escape what they must).
const FORMS = [
  ["escaped", encodeURIComponent],
  ["as it is", (text: string) => text],
] as const;

// Arbitrary Unicode (control characters, astral planes), text made of the characters that
// matter to paths, and plates as people type them: without these, a run whose random text held
// no valid plate saw no 200 and failed the check below (seen once in 1,000 cases).
const anyText = fc.oneof(
  fc.string({ unit: "binary", maxLength: 40 }),
  fc.stringMatching(/^[A-Za-z0-9%./\\ ;?#-]{0,24}$/),
  fc.constantFrom("AB12CDE", "ab12 cde", "AB12-CDE", " a1 "),
);

describe("any text at all where the registration goes in the path", () => {
  it.each(
    ROUTES.flatMap(([route, path]) =>
      FORMS.map(([form, encode]) => [route, form, path, encode] as const),
    ),
  )(
    "%s, %s: a 400 that sends nothing upstream, or only a normalised plate upstream",
    async (route, form, path, encode) => {
      const report = await fuzz(
        `proxy: any text as the ${route} registration, ${form}`,
        anyText,
        async (text) => {
          const upstream = fakeUpstream();
          const { app } = createTestProxy({ fetch: upstream.fetch });
          const response = await app.request(path(encode(text)));
          // 404: the text changed the route (a slash, a dot segment, a query).
          expect([200, 400, 404]).toContain(response.status);
          if (response.status !== 200)
            expect(upstream.requests).toHaveLength(0);
          for (const request of upstream.requests)
            expect(new URL(request.url).pathname).toMatch(FORWARDED_PATH);
          return String(response.status);
        },
      );
      expect(Object.keys(report.outcomes)).toEqual(
        expect.arrayContaining(["200", "400"]),
      );
    },
    FUZZ_TEST_TIMEOUT_MS,
  );
});
