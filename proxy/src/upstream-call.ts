/** One timed call to the vehicle service, reduced to what the proxy decides on. */

export type UpstreamFetch = (
  input: string,
  init: RequestInit,
) => Response | Promise<Response>;

export type UpstreamOutcome =
  | { kind: "answer"; status: number; headers: Headers; body: ArrayBuffer }
  | { kind: "timeout" }
  | { kind: "unreachable"; reason: string };

function describeFailure(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause as { code?: unknown } | undefined;
  return typeof cause?.code === "string" ? cause.code : error.message;
}

/**
 * Calls the upstream and reads the whole body within `timeoutMs`. On time-out the
 * request is aborted, so the socket is released, and the caller gets "timeout" even
 * if a fetch ignores its signal.
 */
export async function callUpstream(
  fetch: UpstreamFetch,
  url: string,
  init: RequestInit,
  timeoutMs: number,
): Promise<UpstreamOutcome> {
  const controller = new AbortController();
  const timedOut = new Promise<"timeout">((resolve) =>
    controller.signal.addEventListener("abort", () => resolve("timeout")),
  );
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  const answer = (async () => {
    const response = await fetch(url, { ...init, signal: controller.signal });
    const body = await response.arrayBuffer();
    return { status: response.status, headers: response.headers, body };
  })();
  try {
    const first = await Promise.race([answer, timedOut]);
    if (first === "timeout") {
      answer.catch(() => {}); // its AbortError is expected now
      return { kind: "timeout" };
    }
    return { kind: "answer", ...first };
  } catch (error) {
    if (controller.signal.aborted) return { kind: "timeout" };
    return { kind: "unreachable", reason: describeFailure(error) };
  } finally {
    clearTimeout(timer);
  }
}
