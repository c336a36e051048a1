// `@vics/server-kit/testing/idle-sockets`: connections that send nothing, as an idle-socket flood
// opens them, and a GET from a loopback address of one's own (localAddress 127.0.0.x; Linux
// routes all of 127.0.0.0/8 to loopback). Test and tool support, never imported by an app.
import { once } from "node:events";
import { type IncomingMessage, request } from "node:http";
import { connect, type Socket } from "node:net";

/** Opens `count` connections from `from`, one after another, that never send a byte. */
export async function idleSockets(
  port: number,
  from: string,
  count: number,
): Promise<Socket[]> {
  const sockets: Socket[] = [];
  for (let i = 0; i < count; i++) {
    const socket = connect({ host: "127.0.0.1", port, localAddress: from });
    socket.on("error", () => {}); // the server may reset it
    sockets.push(socket);
    await once(socket, "connect");
  }
  return sockets;
}

/** Resolves once the socket is closed, by either side. */
export const socketClosed = (socket: Socket): Promise<void> =>
  socket.closed ? Promise.resolve() : once(socket, "close").then(() => {});

/** A GET on a connection of its own from `from`: the status and body. */
export function getFrom(
  url: string,
  from: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const sent = request(url, { localAddress: from, agent: false, headers });
    sent.on("response", (response: IncomingMessage) => {
      let body = "";
      response.on("data", (chunk: Buffer) => (body += chunk.toString()));
      response.on("end", () =>
        resolve({ status: response.statusCode ?? 0, body }),
      );
    });
    sent.on("error", reject);
    sent.end();
  });
}
