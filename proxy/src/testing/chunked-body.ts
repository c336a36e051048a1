/**
 * A request body sent chunked (no Content-Length) on a real socket, for the tests of the body
 * limits: it stops sending as soon as an answer comes, so a server that cuts a body off at its
 * limit never receives much more of it, and it says whether the answer came before the body
 * ended.
 */
import type { IncomingMessage } from "node:http";
import { openChunkedRequest } from "@vics/server-kit/testing/slow-client";

export interface ChunkedAnswer {
  /** 0 when the server closed the connection before its answer could be read. */
  status: number;
  /** The answer's body, as text. */
  text: string;
  /** Bytes of body written before the answer came (or in all, when it came after the end). */
  sentBytes: number;
  /** Whether the body had ended when the answer came: false, for a server that cut it off. */
  ended: boolean;
}

const CHUNK = Buffer.alloc(64 * 1024, "x");

/**
 * Sends `bytes` of body in 64 KiB chunks, waiting for each to be written (so an answer is seen
 * between two), then ends the body only if `end` is set; never ended, a server that waits for
 * the end of the body never answers.
 */
export async function sendChunkedBody(options: {
  port: number;
  method: string;
  path: string;
  headers: Record<string, string>;
  /** How many bytes of "x" to send, or the body itself (in 64 KiB chunks). */
  bytes: number | Buffer;
  end?: boolean;
  /** Called after each chunk is written (the memory test samples the server's RSS). */
  afterChunk?: () => void;
}): Promise<ChunkedAnswer> {
  const client = openChunkedRequest(options);
  let answer: IncomingMessage | undefined;
  let closed = false;
  let ended = false;
  // A server that answers and closes while the client still writes resets the connection, and
  // Node's client may meet the reset (EPIPE) before it has read the answer: no answer, then.
  const answered = new Promise<void>((resolve) => {
    client.on("response", (response: IncomingMessage) => {
      answer = response;
      resolve();
    });
    client.on("error", () => {
      closed = true;
      resolve();
    });
    client.on("close", () => {
      closed = true;
      resolve();
    });
  });
  const body = options.bytes;
  const total = typeof body === "number" ? body : body.length;
  let sentBytes = 0;
  while (sentBytes < total && answer === undefined && !closed) {
    const size = Math.min(CHUNK.length, total - sentBytes);
    const chunk =
      typeof body === "number"
        ? CHUNK.subarray(0, size)
        : body.subarray(sentBytes, sentBytes + size);
    const written = await Promise.race([
      new Promise<boolean>((resolve) =>
        client.write(chunk, (error) => resolve(!error)),
      ),
      answered.then(() => false),
    ]);
    if (!written) break;
    sentBytes += chunk.length;
    options.afterChunk?.();
    // A write the kernel takes at once calls back in the same turn: without a turn of the event
    // loop here, the answer would wait unread until the whole body was written.
    await new Promise((resolve) => setImmediate(resolve));
  }
  if (answer === undefined && !closed && options.end) {
    ended = true;
    client.end();
  }
  await answered;
  let text = "";
  try {
    if (answer) for await (const chunk of answer) text += String(chunk);
  } catch {
    // Reset before the answer's end: what came is kept.
  }
  client.destroy();
  return { status: answer?.statusCode ?? 0, text, sentBytes, ended };
}
