/**
 * `@vics/server-kit/testing/unfinished-body`: a POST whose body never ends, to prove over a real
 * socket that a server refuses a large body (413) before it has arrived. Test support.
 */
import { once } from "node:events";
import { type IncomingMessage, request } from "node:http";

export interface EarlyAnswer {
  status: number;
  headers: IncomingMessage["headers"];
  /** The answer's body, parsed. */
  json: unknown;
  /** Whether the body went without a Content-Length (chunked), as asked. */
  chunked: boolean;
  /** Whether the client had ended its body when the answer came: false, for a server that decided early. */
  ended: boolean;
}

/**
 * Sends the headers, then either 80 KiB of chunked body in 8 KiB writes (over the bulk
 * checks' 64 KiB), or, with `contentLength`, only a declaration of that many bytes. Never
 * ends the body; resolves with the answer that came anyway.
 */
export async function postUnfinishedBody(options: {
  port: number;
  path: string;
  headers: Record<string, string>;
  contentLength?: number;
}): Promise<EarlyAnswer> {
  const client = request({
    host: "127.0.0.1",
    port: options.port,
    path: options.path,
    method: "POST",
    headers: {
      ...options.headers,
      ...(options.contentLength !== undefined && {
        "Content-Length": String(options.contentLength),
      }),
    },
  });
  client.on("error", () => {}); // the server may drop the socket after answering
  const answered = once(client, "response") as Promise<[IncomingMessage]>;
  if (options.contentLength === undefined)
    for (let i = 0; i < 10; i++) client.write("x".repeat(8 * 1024));
  else client.flushHeaders();
  const [response] = await answered;
  const chunked = client.getHeader("Content-Length") === undefined;
  const ended = client.writableEnded;
  let text = "";
  for await (const chunk of response) text += String(chunk);
  client.destroy();
  return {
    status: response.statusCode ?? 0,
    headers: response.headers,
    json: JSON.parse(text),
    chunked,
    ended,
  };
}
