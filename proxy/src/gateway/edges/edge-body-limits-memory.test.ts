// The real proxy (`node src/index.ts`) sent a 64 MiB chunked body at its unauthenticated
// sign-in: it answers 413 at the form's limit and reads no more, so its resident memory (RSS,
// from /proc) barely moves. Before the body was counted while it streamed, it read the whole
// body into memory before refusing it.
import { readFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { AUTH_PATHS, CLIENT_HEADER, ProblemSchema } from "@vics/shared";
import { builtWebRoot } from "../../testing/index.ts";
import { sendChunkedBody } from "../../testing/chunked-body.ts";
import {
  byMessage,
  PROXY_ENTRY,
  type RunningChild,
  startNode,
} from "../../testing/child-processes.ts";

const MIB = 1024 * 1024;
const WARM_UPS = 5;

/** The process's RSS in MiB, from /proc (Linux, as CI). */
function rssMib(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = /^VmRSS:\s+(\d+)\s+kB/m.exec(status)?.[1];
  if (kb === undefined) throw new Error(`no VmRSS for ${pid}`);
  return Number(kb) / 1024;
}

/**
 * The RSS once it has held within half a MiB for a second (sampled every 250 ms), or after 15 s
 * at the latest.
 */
async function settledRss(pid: number): Promise<number> {
  const samples: number[] = [];
  const deadline = Date.now() + 15_000;
  for (;;) {
    samples.push(rssMib(pid));
    const last = samples.slice(-5);
    if (
      (last.length === 5 && Math.max(...last) - Math.min(...last) < 0.5) ||
      Date.now() > deadline
    )
      return samples.at(-1)!;
    await new Promise((done) => setTimeout(done, 250));
  }
}

let proxy: RunningChild | undefined;
afterEach(() => {
  proxy?.process.kill("SIGKILL");
});

describe("node src/index.ts sent 64 MiB of chunked body at the sign-in", () => {
  it("answers 413 at the form's limit, and its RSS grows by less than 4 MiB", async () => {
    proxy = startNode(PROXY_ENTRY, {
      HOST: "127.0.0.1",
      PORT: "0",
      // Nothing listens there: the sign-in needs no upstream.
      UPSTREAM_URL: "http://127.0.0.1:9",
      UPSTREAM_API_KEY: "vics_body_limit_test_key",
      WEB_DIST: builtWebRoot(),
    });
    const pid = proxy.process.pid!;
    const port = Number(
      new URL(String((await proxy.waitFor(byMessage("listening"))).url)).port,
    );
    const signIn = (bytes: number, afterChunk?: () => void) =>
      sendChunkedBody({
        port,
        method: "POST",
        path: AUTH_PATHS.signIn,
        headers: { "Content-Type": "application/json", [CLIENT_HEADER]: "web" },
        bytes,
        // Ended after it all, so a proxy that reads it whole still answers.
        end: true,
        afterChunk,
      });
    // The same refusal a few times first, so the code it runs is loaded and compiled.
    for (let warmUp = 0; warmUp < WARM_UPS; warmUp++) await signIn(MIB);
    // On a busy machine the proxy may still be finishing its start (its store, its jobs) after
    // "listening": that is not the body's memory, so measure from an RSS that has settled.
    const before = await settledRss(pid);
    let highest = before;
    const answer = await signIn(64 * MIB, () => {
      highest = Math.max(highest, rssMib(pid));
    });
    highest = Math.max(highest, rssMib(pid));

    expect(highest - before).toBeLessThan(4);
    // Refused before the body ended. The proxy closes the connection after its 413, and the
    // client may meet the reset before the answer (Node's client reads no more then): its log
    // says what it answered.
    expect(answer.ended).toBe(false);
    if (answer.status !== 0) {
      expect(answer.status).toBe(413);
      expect(ProblemSchema.parse(JSON.parse(answer.text)).code).toBe(
        "PAYLOAD_TOO_LARGE",
      );
    }
    const refusals = () =>
      proxy!
        .events()
        .filter(
          (event) => event.route === AUTH_PATHS.signIn && event.status === 413,
        ).length;
    await expect.poll(refusals, { timeout: 10_000 }).toBe(WARM_UPS + 1);
  }, 60_000);
});
