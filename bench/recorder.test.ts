import { afterEach, describe, expect, it, vi } from "vitest";
import { createRecorder } from "./recorder.ts";

describe("a recorder's skip", () => {
  it("leaves the figures null with a note, and says why", () => {
    const recorder = createRecorder();
    const said: string[] = [];
    recorder.say = (line) => void said.push(line);
    recorder.skip(["cluster_rps", "cluster_p99_ms"], "Redis is not installed");
    expect(recorder.figures).toEqual({
      cluster_rps: null,
      cluster_p99_ms: null,
    });
    expect(recorder.notes.cluster_p99_ms).toBe(
      "skipped: Redis is not installed",
    );
    expect(recorder.failures).toEqual([]);
    expect(said).toEqual(["- cluster_rps: skipped, Redis is not installed"]);
  });
});

describe("a recorder's scenario", () => {
  afterEach(() => vi.restoreAllMocks());

  it("keeps the figures a scenario sets", async () => {
    const recorder = createRecorder();
    recorder.say = () => undefined;
    await recorder.scenario(["service_rps"], async () => {
      recorder.figures.service_rps = 1234;
    });
    expect(recorder.figures).toEqual({ service_rps: 1234 });
    expect(recorder.failures).toEqual([]);
  });

  it("turns a failure into null figures with a note, says it, and lets the run go on", async () => {
    const printed = vi.spyOn(console, "error").mockImplementation(() => {});
    const recorder = createRecorder();
    recorder.say = () => undefined;
    await recorder.scenario(["proxy_rps", "proxy_p99_ms"], async () => {
      recorder.figures.proxy_rps = 10;
      throw new Error("proxy insurance (run): 12 answers not 2xx (429: 12)");
    });
    expect(recorder.figures).toEqual({ proxy_rps: null, proxy_p99_ms: null });
    expect(recorder.notes.proxy_rps).toBe("FAILED (see the log above)");
    expect(recorder.failures).toEqual([
      "proxy insurance (run): 12 answers not 2xx (429: 12)",
    ]);
    expect(printed).toHaveBeenCalledWith(
      "  FAILED: proxy insurance (run): 12 answers not 2xx (429: 12)",
    );
  });
});
