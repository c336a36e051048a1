import { ProblemSchema } from "@vics/shared";
import { loopbackServers } from "@vics/server-kit/testing/loopback-server";
import { postUnfinishedBody } from "@vics/server-kit/testing/unfinished-body";
import { describe, expect, it } from "vitest";
import { BULK_CHECKS } from "../testing/bulk-checks.ts";
import { freshServices } from "../testing/services.ts";

/**
 * Over a real socket, as the service runs: the 413 comes back while the client is still
 * sending, so the service decided before the whole body arrived (it never does arrive).
 */

const start = freshServices();
const serve = loopbackServers();

async function listening() {
  const service = await start();
  const key = await service.createKey("standard");
  const { port } = await serve(service.app.fetch);
  return {
    port,
    headers: { "Content-Type": "application/json", "X-API-Key": key },
  };
}

describe.each(BULK_CHECKS)("POST $path over a socket", ({ path }) => {
  it("a chunked body: 413 after 64 KiB, while the body is still being sent", async () => {
    const answer = await postUnfinishedBody({ ...(await listening()), path });
    expect(answer).toMatchObject({ status: 413, chunked: true, ended: false });
    expect(answer.headers["x-ratelimit-remaining"]).toBe("119");
    expect(ProblemSchema.parse(answer.json).code).toBe("PAYLOAD_TOO_LARGE");
  });

  it("a declared Content-Length over 64 KiB: 413 before any of the body is sent", async () => {
    const answer = await postUnfinishedBody({
      ...(await listening()),
      path,
      contentLength: 1024 * 1024,
    });
    expect(answer).toMatchObject({ status: 413, ended: false });
    expect(ProblemSchema.parse(answer.json).code).toBe("PAYLOAD_TOO_LARGE");
  });
});
