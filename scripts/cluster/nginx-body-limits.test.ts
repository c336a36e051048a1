// deploy/nginx/vics.conf's body limits, with nginx running the rendered site over TLS in front
// of a stand-in proxy replica that reads every body it is given: a saved fleet's list up to the
// app's 24 MB reaches the app (nginx's old 1 MB limit answered nginx's own HTML 413 page); a
// body over nginx's limit is refused by nginx with the app's problem document.
import { rmSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  FLEET_MAX_BODY_BYTES,
  PROBLEM_TITLES,
  ProblemSchema,
  problemType,
} from "@vics/shared";
import {
  httpsSend,
  siteDirectory,
  startSiteNginx,
  type SiteUnderTest,
} from "./site-under-test.ts";

// nginx keeps large bodies in temporary files below, which its workers reach as root.
const dir = siteDirectory("vics-nginx-bodies-");
const MIB = 1024 * 1024;

let site: SiteUnderTest;
/** What the stand-in replica was sent: each request's method, path and body length. */
const received: Array<{ method: string; path: string; bytes: number }> = [];

beforeAll(async () => {
  // The replica reads every body whole and says how long it was.
  site = await startSiteNginx(dir, (incoming, outgoing) => {
    let bytes = 0;
    incoming.on("data", (chunk: Buffer) => (bytes += chunk.length));
    incoming.on("end", () => {
      received.push({
        method: incoming.method ?? "",
        path: incoming.url ?? "",
        bytes,
      });
      outgoing.writeHead(201, { "Content-Type": "application/json" });
      outgoing.end(JSON.stringify({ bytes }));
    });
  });
}, 60_000);

afterAll(async () => {
  await site?.close();
  rmSync(dir, { recursive: true, force: true });
}, 30_000);

/** A request with a body of `bytes` through nginx's https listener, trusting its certificate. */
async function send(method: string, path: string, bytes: number) {
  const answer = await httpsSend(
    site,
    path,
    {
      method,
      headers: {
        "Content-Type": "application/json",
        "Content-Length": String(bytes),
      },
    },
    Buffer.alloc(bytes, " "),
  );
  return {
    status: answer.status,
    type: answer.raw.find(([name]) => name === "content-type")?.[1] ?? "",
    text: answer.body.toString(),
  };
}

describe("nginx's body limits, per location, above the app's", () => {
  it.each([
    ["POST", "/api/fleets"],
    ["POST", "/api/fleets/7c1a/difference"],
    ["PUT", "/api/fleets/7c1a/vehicles"],
  ])(
    "%s %s: a fleet's list of 20 MB reaches the replica, whose answer comes back",
    async (method, path) => {
      const answer = await send(method, path, 20 * MIB);
      expect(answer).toMatchObject({ status: 201 });
      expect(JSON.parse(answer.text)).toEqual({ bytes: 20 * MIB });
      expect(received.at(-1)).toEqual({ method, path, bytes: 20 * MIB });
    },
    60_000,
  );

  it("passes a list just over the app's 24 MB on, for the app's own 413 in words", async () => {
    const answer = await send("POST", "/api/fleets", FLEET_MAX_BODY_BYTES + 1);
    expect(answer.status).toBe(201);
    expect(received.at(-1)?.bytes).toBe(FLEET_MAX_BODY_BYTES + 1);
  }, 60_000);

  it.each([
    ["a fleet's list well over 24 MB", "POST", "/api/fleets", 26 * MIB],
    ["a sign-in of 256 KB", "POST", "/api/auth/sign-in", 256 * 1024],
    ["a rename of 256 KB", "PATCH", "/api/fleets/7c1a", 256 * 1024],
    [
      "a bulk check of 256 KB",
      "POST",
      "/api/v1/vehicle/bulk-insurance",
      256 * 1024,
    ],
  ])(
    "%s: nginx's 413, as the app's problem document, and nothing reaches the replica",
    async (_name, method, path, bytes) => {
      const before = received.length;
      const answer = await send(method, path, bytes);
      expect(answer.status).toBe(413);
      expect(answer.type).toContain("application/problem+json");
      const problem = ProblemSchema.parse(JSON.parse(answer.text));
      expect(problem).toMatchObject({
        status: 413,
        code: "PAYLOAD_TOO_LARGE",
        type: problemType("PAYLOAD_TOO_LARGE"),
        title: PROBLEM_TITLES.PAYLOAD_TOO_LARGE,
      });
      expect(problem.requestId).toMatch(/^[0-9a-f]{32}$/);
      expect(received.length).toBe(before);
    },
    60_000,
  );
});
