// Faults: a fleet run of 10,000 registrations while a random tenth of the upstream's answers
// are faults of every kind (seeded, so a failure can be replayed): every registration ends
// with exactly one outcome, none lost, none twice, and the ones that end "not checked" say why.
import { describe, expect, it } from "vitest";
import { fakeUpstream, type UpstreamCall } from "../testing/fake-upstream.ts";
import { bulkBody, problemResponse } from "../testing/answers.ts";
import {
  expectOneOutcomeEach,
  fakeClock,
  quickTuning,
  registrationsNumbered,
  startEngine,
} from "../testing/engine-run.ts";

/** mulberry32: a small seeded generator, so a run's faults can be replayed. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A 200 whose body breaks off half-way: the connection reset in the middle of the answer. */
function resetMidAnswer(): Response {
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(new TextEncoder().encode('{"results":[{"regist'));
      setTimeout(() => controller.error(new Error("ECONNRESET")), 1);
    },
  });
  return new Response(body, {
    headers: { "Content-Type": "application/json", "Content-Length": "9000" },
  });
}

const FAULTS = {
  "500": () => problemResponse(500, "INTERNAL"),
  "502": () => problemResponse(502, "BAD_GATEWAY"),
  "503": () => problemResponse(503, "INTERNAL"),
  "504": () => problemResponse(504, "GATEWAY_TIMEOUT"),
  network: () => Response.error(),
  reset: resetMidAnswer,
  "not JSON": () =>
    new Response("<html>Service unavailable</html>", {
      headers: { "Content-Type": "text/html" },
    }),
  "counts that do not add up": (call: UpstreamCall) =>
    Response.json({
      ...bulkBody(
        call.registrations.map((registration) => ({
          registration,
          insured: false,
        })),
      ),
      processed: call.registrations.length + 1,
    }),
} as const;
type Fault = keyof typeof FAULTS;
const FAULT_KINDS = Object.keys(FAULTS) as Fault[];

const ROWS = 10_000;
const FAILURE_RATE = 0.1;
const SEED = 20260109;

describe("a fleet run of 10,000 rows under 10% random upstream faults", () => {
  it.for([
    { maxAttempts: 4, what: "the page's 4 tries" },
    { maxAttempts: 2, what: "2 tries, so that some rows run out" },
  ])(
    "with $what: every registration has exactly one outcome, insurance and compliance",
    { timeout: 60_000 },
    async ({ maxAttempts }, { annotate }) => {
      const random = seededRandom(SEED);
      const injected = new Map<number, Fault>();
      const clock = fakeClock();
      const upstream = fakeUpstream({
        clock,
        script: (call) => {
          if (random() >= FAILURE_RATE) return undefined;
          // Which calls fail is random; the kinds take turns, so that every one is met.
          const fault = FAULT_KINDS[injected.size % FAULT_KINDS.length]!;
          injected.set(call.number, fault);
          return FAULTS[fault](call);
        },
      });
      const registrations = registrationsNumbered(ROWS, "F");
      const engine = startEngine({
        client: upstream.client,
        registrations,
        checkCompliance: true,
        // Chunks of 100: 200 requests at least, so that a tenth of them is a fair sample.
        tuning: quickTuning(clock, {
          chunkSize: 100,
          maxAttempts,
          random: seededRandom(SEED + 1),
        }),
      });

      await expect(engine.end).resolves.toEqual({ status: "finished" });
      expectOneOutcomeEach(registrations, engine.batches, true);

      const results = [...engine.results().values()];
      const notChecked = (part: "insurance" | "compliance") =>
        results.filter((result) => result[part]?.status === "not-checked");
      const reasons = new Set(
        [...notChecked("insurance"), ...notChecked("compliance")].map(
          (result) =>
            result.insurance.status === "not-checked"
              ? result.insurance.reason
              : result.compliance?.status === "not-checked"
                ? result.compliance.reason
                : "",
        ),
      );
      for (const reason of reasons)
        expect(reason).toMatch(
          new RegExp(
            `(did not answer|could not reach|took too long|could not read).* ${maxAttempts} tries`,
          ),
        );
      // Every fault kind was met, and about a tenth of the calls failed.
      expect(new Set(injected.values())).toEqual(new Set(FAULT_KINDS));
      expect(injected.size / upstream.calls.length).toBeGreaterThan(0.05);
      expect(injected.size / upstream.calls.length).toBeLessThan(0.15);
      // A chunk's rows end "not checked" only when every one of its tries failed.
      expect(notChecked("insurance").length % 100).toBe(0);
      const answered = results.length - notChecked("insurance").length;
      expect(answered + notChecked("insurance").length).toBe(ROWS);

      await annotate(
        `${upstream.calls.length} requests, ${injected.size} faults injected; ` +
          `not checked: ${notChecked("insurance").length} insurance, ` +
          `${notChecked("compliance").length} compliance, of ${ROWS}`,
      );
    },
  );
});
