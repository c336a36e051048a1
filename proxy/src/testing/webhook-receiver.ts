// A team's webhook endpoint, for tests: a real HTTP server on 127.0.0.1 that checks every
// delivery with the standardwebhooks library, as a receiver would, against the secrets it is
// given, and answers however the test says. Test support, never imported by the app.
import { once } from "node:events";
import { type ServerResponse, createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";

/** One request as the receiver saw it. */
export interface ReceivedDelivery {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: string;
  /** The names of the receiver's secrets that verify it. */
  verifiedBy: string[];
}

/** How the receiver answers a delivery; the default is 204. Answering nothing is allowed. */
export type Answer = (
  response: ServerResponse,
  delivery: ReceivedDelivery,
) => void;

export interface TestReceiver {
  /** `http://127.0.0.1:<port>/hook`. */
  url: string;
  port: number;
  deliveries: ReceivedDelivery[];
  answer: Answer;
  close(): Promise<void>;
}

/** A receiver holding `secrets` (by name, e.g. `{ old, new }`), listening on a free port. */
export async function startReceiver(
  secrets: Record<string, string>,
): Promise<TestReceiver> {
  const deliveries: ReceivedDelivery[] = [];
  const server = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString("utf8");
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(request.headers)) {
      if (value !== undefined) headers[name] = [value].flat().join(", ");
    }
    const verifiedBy = Object.entries(secrets)
      .filter(([, secret]) => verifies(secret, body, headers))
      .map(([name]) => name);
    const delivery = {
      method: request.method ?? "",
      path: request.url ?? "",
      headers,
      body,
      verifiedBy,
    };
    deliveries.push(delivery);
    receiver.answer(response, delivery);
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  const receiver: TestReceiver = {
    url: `http://127.0.0.1:${port}/hook`,
    port,
    deliveries,
    answer: (response) => response.writeHead(204).end(),
    close: async () => {
      server.closeAllConnections();
      server.close();
      await once(server, "close");
    },
  };
  return receiver;
}

function verifies(
  secret: string,
  body: string,
  headers: Record<string, string>,
): boolean {
  try {
    new Webhook(secret).verify(body, headers);
    return true;
  } catch {
    return false;
  }
}
