// Real deliveries to a receiver on 127.0.0.1 that verifies each one with standardwebhooks:
// signed so the receiver's secret (either one, during a rotation) verifies it, sent only to
// checked addresses, and every failure (refused address, error status, redirect, timeout,
// closed port) an answer with words rather than a throw.
import { once } from "node:events";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";
import { afterEach, describe, expect, it } from "vitest";
import { sendWebhook } from "./send-webhook.ts";
import {
  type TestReceiver,
  startReceiver,
} from "../../../testing/webhook-receiver.ts";
import type { Lookup } from "./webhook-address.ts";
import { newWebhookSecret } from "./webhook-secret.ts";

const body = JSON.stringify({
  type: "alert.opened",
  data: { alertId: "a1", fleet: "f1" },
});
const secret = newWebhookSecret();
let receiver: TestReceiver;

afterEach(async () => {
  await receiver?.close();
});

/** A delivery of `body` to the receiver, signed with `secret`, private addresses allowed. */
function deliver(overrides: Partial<Parameters<typeof sendWebhook>[0]> = {}) {
  return sendWebhook({
    url: receiver.url,
    allowPrivate: true,
    id: "msg_alert_a1",
    timestamp: new Date(),
    body,
    secrets: [secret],
    ...overrides,
  });
}

/** Answers 200 or 500 then sends body bytes forever, until the connection closes. */
function endlessBody(status: number) {
  return (response: import("node:http").ServerResponse) => {
    response.writeHead(status, { "content-type": "text/plain" });
    const drip = setInterval(() => response.write("x".repeat(1024)), 5);
    response.on("close", () => clearInterval(drip));
  };
}

describe("sendWebhook delivers", () => {
  it("a signed POST that verifies with the endpoint's secret, and a 204 is ok", async () => {
    receiver = await startReceiver({
      current: secret,
      other: newWebhookSecret(),
    });
    const result = await deliver();
    expect(result).toMatchObject({ ok: true, status: 204, error: null });
    expect(result.ms).toBeGreaterThanOrEqual(0);
    expect(receiver.deliveries).toHaveLength(1);
    const [delivery] = receiver.deliveries;
    expect(delivery).toMatchObject({
      method: "POST",
      path: "/hook",
      body,
      verifiedBy: ["current"],
    });
    expect(delivery?.headers["content-type"]).toBe("application/json");
    expect(delivery?.headers["webhook-id"]).toBe("msg_alert_a1");
  });

  it("a body that, changed on the way, would no longer verify", async () => {
    receiver = await startReceiver({ current: secret });
    await deliver();
    const delivery = receiver.deliveries[0]!;
    const receiving = new Webhook(secret);
    expect(receiving.verify(delivery.body, delivery.headers)).toEqual(
      JSON.parse(body),
    );
    expect(() =>
      receiving.verify(delivery.body.replace("a1", "a2"), delivery.headers),
    ).toThrow(/No matching signature/);
  });

  it("during a rotation, a delivery that verifies with the old secret and with the new", async () => {
    const oldSecret = secret;
    const newSecret = newWebhookSecret();
    receiver = await startReceiver({
      old: oldSecret,
      new: newSecret,
      other: newWebhookSecret(),
    });
    const result = await deliver({ secrets: [newSecret, oldSecret] });
    expect(result.ok).toBe(true);
    expect(receiver.deliveries[0]?.verifiedBy).toEqual(["old", "new"]);
  });

  it("to the address the name was checked at, looking it up once", async () => {
    receiver = await startReceiver({ current: secret });
    const asked: string[] = [];
    // A rebinding name: checked at the receiver, then somewhere else if asked again.
    const lookup: Lookup = async (hostname) => {
      asked.push(hostname);
      return [
        { address: asked.length === 1 ? "127.0.0.1" : "192.0.2.1", family: 4 },
      ];
    };
    const url = `http://alerts.example.test:${receiver.port}/hook`;
    const result = await deliver({ url, lookup });
    expect(result).toMatchObject({ ok: true, status: 204 });
    expect(asked).toEqual(["alerts.example.test"]);
    expect(receiver.deliveries[0]?.headers.host).toBe(
      `alerts.example.test:${receiver.port}`,
    );
  });

  it("a 2xx without waiting for a body that never ends", async () => {
    receiver = await startReceiver({ current: secret });
    receiver.answer = endlessBody(200);
    const result = await deliver({ timeoutMs: 30_000 });
    expect(result).toMatchObject({ ok: true, status: 200, error: null });
    // Not the deadline's wait: a bound far from it, not a timing of the delivery.
    expect(result.ms).toBeLessThan(15_000);
  }, 20_000);
});

describe("sendWebhook refuses", () => {
  it("the receiver's own 127.0.0.1 when private addresses are not allowed, without connecting", async () => {
    receiver = await startReceiver({ current: secret });
    const result = await deliver({ allowPrivate: false });
    expect(result).toMatchObject({ ok: false, status: null });
    expect(result.error).toMatch(/127\.0\.0\.1 is a loopback address/);
    expect(receiver.deliveries).toHaveLength(0);
  });

  it("a name that resolves to 10.0.0.1", async () => {
    receiver = await startReceiver({ current: secret });
    const lookup: Lookup = async () => [{ address: "10.0.0.1", family: 4 }];
    const result = await deliver({
      url: "https://hooks.example.com/vics",
      allowPrivate: false,
      lookup,
    });
    expect(result).toMatchObject({ ok: false, status: null });
    expect(result.error).toMatch(
      /hooks\.example\.com resolves to 10\.0\.0\.1.*private-network/,
    );
  });

  it("what is not a URL, and what it cannot sign, with words rather than a throw", async () => {
    receiver = await startReceiver({ current: secret });
    expect(await deliver({ url: "not a url" })).toMatchObject({
      ok: false,
      error: "The webhook address is not a URL.",
    });
    const unsigned = await deliver({ secrets: [] });
    expect(unsigned).toMatchObject({ ok: false, status: null });
    expect(unsigned.error).toMatch(
      /could not be signed: .*at least one secret/,
    );
    expect(receiver.deliveries).toHaveLength(0);
  });
});

describe("sendWebhook fails, with words,", () => {
  it("on a 500, in its own words, never quoting what the endpoint said", async () => {
    receiver = await startReceiver({ current: secret });
    receiver.answer = (response) =>
      response
        .writeHead(500, "db password is hunter2")
        .end("database down\n\tretry later; token=s3cr3t");
    const result = await deliver();
    expect(result).toEqual({
      ok: false,
      status: 500,
      error:
        "The endpoint answered 500, not a 2xx success: a failure at its end.",
      ms: expect.any(Number),
    });
  });

  it.each<[number, string]>([
    [400, "it refused the delivery as malformed"],
    [401, "it refused the delivery's signature or credentials"],
    [404, "nothing is at that URL"],
    [413, "the delivery was too large for it"],
    [429, "it is too busy, or limits how often it is sent to"],
    [418, "it refused the delivery"],
  ])("on a %i, saying what that status means", async (status, words) => {
    receiver = await startReceiver({ current: secret });
    receiver.answer = (response) =>
      response.writeHead(status).end("<html>their own page</html>");
    const result = await deliver();
    expect(result.error).toBe(
      `The endpoint answered ${status}, not a 2xx success: ${words}.`,
    );
  });

  it("on a 500 whose body never ends, reading none of it", async () => {
    receiver = await startReceiver({ current: secret });
    receiver.answer = endlessBody(500);
    const result = await deliver({ timeoutMs: 60_000 });
    expect(result).toMatchObject({
      ok: false,
      status: 500,
      error:
        "The endpoint answered 500, not a 2xx success: a failure at its end.",
    });
  });

  it("on a redirect, which it does not follow, without quoting where to", async () => {
    receiver = await startReceiver({ current: secret });
    receiver.answer = (response, delivery) => {
      if (delivery.path === "/hook") {
        response
          .writeHead(302, {
            location: `http://127.0.0.1:${receiver.port}/moved?key=s3cr3t`,
          })
          .end();
      } else response.writeHead(204).end();
    };
    const result = await deliver();
    expect(result).toMatchObject({
      ok: false,
      status: 302,
      error:
        "The endpoint answered 302, a redirect; webhooks do not follow redirects, so set the webhook's URL to the address it redirects to.",
    });
    expect(receiver.deliveries.map((each) => each.path)).toEqual(["/hook"]);
  });

  it("when no answer comes before the deadline", async () => {
    receiver = await startReceiver({ current: secret });
    receiver.answer = () => undefined;
    const result = await deliver({ timeoutMs: 300 });
    expect(result).toMatchObject({
      ok: false,
      status: null,
      error: "No answer came within 0.3 s, so the delivery gave up.",
    });
    expect(result.ms).toBeGreaterThanOrEqual(250);
    expect(result.ms).toBeLessThan(3000);
    expect(receiver.deliveries).toHaveLength(1);
  });

  it("when the host's lookup does not finish before the deadline", async () => {
    receiver = await startReceiver({ current: secret });
    const result = await deliver({
      url: "https://slow-dns.example/hook",
      lookup: () => new Promise(() => undefined),
      timeoutMs: 200,
    });
    expect(result).toMatchObject({
      ok: false,
      status: null,
      error:
        "The webhook's host was not found within 0.2 s, so the delivery gave up.",
    });
  });

  it("when nothing listens on the port", async () => {
    receiver = await startReceiver({ current: secret });
    const closed = createServer();
    closed.listen(0, "127.0.0.1");
    await once(closed, "listening");
    const { port } = closed.address() as AddressInfo;
    closed.close();
    await once(closed, "close");
    const result = await deliver({ url: `http://127.0.0.1:${port}/hook` });
    expect(result).toMatchObject({
      ok: false,
      status: null,
      error:
        "The delivery failed: the endpoint refused the connection (ECONNREFUSED).",
    });
  });
});
