// Wrong keys are limited across addresses, over real sockets from real loopback addresses
// (localAddress 127.0.0.x; Linux routes all of 127.0.0.0/8 to loopback). Ten addresses that
// each stay under their own limit of 30 once got 401 for all 300 guesses (decision 031).
import { type IncomingMessage, request } from "node:http";
import { API_KEY_HEADER, UNAUTHENTICATED_LIMIT } from "@vics/shared";
import { loopbackServers } from "@vics/server-kit/testing/loopback-server";
import { describe, expect, it } from "vitest";
import { freshServices } from "../testing/services.ts";
import { clientAddress } from "./client-address.ts";
import { WRONG_KEYS_PER_WINDOW } from "./wrong-key-budget.ts";

// The production resolver, trusting no proxy (the default): the socket's peer.
const start = freshServices({ clientAddress: clientAddress([]) });
const serve = loopbackServers();

async function listening() {
  const service = await start();
  const { port } = await serve(service.app.fetch);
  return { service, port };
}

const INSURANCE = "/v1/vehicle/AB12CDE/insurance";

/** One GET on a connection of its own from `from`; the status and Remaining. */
function get(port: number, from: string, key?: string) {
  return new Promise<{ status: number; remaining: string }>(
    (resolve, reject) => {
      const sent = request({
        host: "127.0.0.1",
        port,
        path: INSURANCE,
        localAddress: from,
        agent: false,
        headers: key === undefined ? {} : { [API_KEY_HEADER]: key },
      });
      sent.on("response", (response: IncomingMessage) => {
        response.resume();
        response.on("end", () =>
          resolve({
            status: response.statusCode ?? 0,
            remaining: String(response.headers["x-ratelimit-remaining"]),
          }),
        );
      });
      sent.on("error", reject);
      sent.end();
    },
  );
}

const ADDRESSES = Array.from({ length: 10 }, (_, i) => `127.0.0.${11 + i}`);
// Under each address's own limit, and twice the budget of all of them together.
const GUESSES_PER_ADDRESS = 20;

describe("wrong keys from ten addresses, none over its own limit", () => {
  it("meet 429 once the budget shared by every address is spent; a valid key is still answered", async () => {
    expect(GUESSES_PER_ADDRESS).toBeLessThan(UNAUTHENTICATED_LIMIT);
    expect(ADDRESSES.length * GUESSES_PER_ADDRESS).toBeGreaterThan(
      WRONG_KEYS_PER_WINDOW,
    );
    const { service, port } = await listening();
    const key = await service.createKey("standard");

    const statuses: number[] = [];
    const valid: number[] = [];
    for (let round = 0; round < GUESSES_PER_ADDRESS; round++) {
      const answers = await Promise.all(
        ADDRESSES.map((from, i) =>
          get(port, from, `vics_guess_${round}_${i}_${"x".repeat(30)}`),
        ),
      );
      statuses.push(...answers.map((answer) => answer.status));
      // The valid key, from one of the guessing addresses, meanwhile.
      valid.push((await get(port, ADDRESSES[round % 10]!, key)).status);
    }

    expect(statuses.filter((status) => status === 401)).toHaveLength(
      WRONG_KEYS_PER_WINDOW,
    );
    expect(statuses.filter((status) => status === 429)).toHaveLength(
      ADDRESSES.length * GUESSES_PER_ADDRESS - WRONG_KEYS_PER_WINDOW,
    );
    expect(valid.every((status) => status === 200)).toBe(true);

    // A new address's first guess is refused too; a request without a key is not a guess.
    expect((await get(port, "127.0.0.99", "vics_one_more_guess")).status).toBe(
      429,
    );
    const keyless = await get(port, "127.0.0.98");
    expect(keyless.status).toBe(401);
    expect(keyless.remaining).toBe(String(UNAUTHENTICATED_LIMIT - 1));
    expect((await get(port, "127.0.0.99", key)).status).toBe(200);
  });
});
