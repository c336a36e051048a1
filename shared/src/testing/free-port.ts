// `@vics/shared/testing/free-port`: a port free on loopback now, for the e2e suite, the soak and
// the bench, which start servers of their own; and whether something listens on one, for the
// tests that check a server has gone. Test and tool support, never imported by an app.
import { once } from "node:events";
import { connect, createServer } from "node:net";

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() =>
        typeof address === "object" && address
          ? resolve(address.port)
          : reject(new Error("no free port")),
      );
    });
  });
}

/** Whether something accepts a connection on the loopback port. */
export async function listening(port: number): Promise<boolean> {
  const socket = connect(port, "127.0.0.1");
  try {
    await once(socket, "connect");
    return true;
  } catch {
    return false;
  } finally {
    socket.destroy();
  }
}
