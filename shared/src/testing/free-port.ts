// `@vics/shared/testing/free-port`: a port free on loopback now, for the e2e suite, the soak and
// the bench, which start servers of their own. Test and tool support, never imported by an app.
import { createServer } from "node:net";

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
