import { describe, expect, it } from "vitest";
import { ApiError, readAnswerJson } from "./api-error.ts";

/** A response whose body breaks after its first bytes, as a connection cut mid-answer. */
function brokenResponse(): Response {
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(new TextEncoder().encode('{"resu'));
      controller.error(new Error("socket hang up"));
    },
  });
  return new Response(body, { status: 200 });
}

describe("readAnswerJson", () => {
  it("reads JSON, and leaves an empty or non-JSON body to the caller as undefined", async () => {
    expect(await readAnswerJson(new Response('{"a":1}'))).toEqual({ a: 1 });
    expect(await readAnswerJson(new Response(""))).toBeUndefined();
    expect(await readAnswerJson(new Response("<html>"))).toBeUndefined();
  });

  it("makes a body cut short a NETWORK ApiError with the answer's reference", async () => {
    const error = await readAnswerJson(brokenResponse(), {
      requestId: "req-1",
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      status: 200,
      code: "NETWORK",
      requestId: "req-1",
      detail: "The connection to the vehicle service broke during its answer.",
    });
  });

  it("rethrows as it is when the caller aborted", async () => {
    const abort = new AbortController();
    abort.abort();
    const error = await readAnswerJson(brokenResponse(), {
      signal: abort.signal,
    }).catch((e: unknown) => e);
    expect(error).not.toBeInstanceOf(ApiError);
  });
});
