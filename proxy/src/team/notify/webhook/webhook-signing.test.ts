// Signed headers verify with the standardwebhooks library a receiver would use, with either
// secret during a rotation, and stop verifying when anything signed is changed.
import { createHmac } from "node:crypto";
import { Webhook, WebhookVerificationError } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { newWebhookSecret } from "./webhook-secret.ts";
import { signedHeaders } from "./webhook-signing.ts";

const body = JSON.stringify({ type: "alert.opened", data: { alertId: "a1" } });

describe("signedHeaders", () => {
  it("gives the id, the time in whole seconds and a v1 signature", () => {
    const headers = signedHeaders({
      id: "msg_1",
      timestamp: new Date("2026-03-01T12:00:00.900Z"),
      body,
      secrets: [newWebhookSecret()],
    });
    expect(headers["webhook-id"]).toBe("msg_1");
    expect(headers["webhook-timestamp"]).toBe("1772366400");
    expect(headers["webhook-signature"]).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
  });

  it("signs {id}.{timestamp}.{body} with HMAC-SHA256 of the decoded secret, as the spec says", () => {
    const secret = newWebhookSecret();
    const timestamp = new Date("2026-03-01T12:00:00Z");
    const headers = signedHeaders({
      id: "msg_2",
      timestamp,
      body,
      secrets: [secret],
    });
    const key = Buffer.from(secret.slice("whsec_".length), "base64");
    const expected = createHmac("sha256", key)
      .update(`msg_2.1772366400.${body}`)
      .digest("base64");
    expect(headers["webhook-signature"]).toBe(`v1,${expected}`);
  });

  it("verifies with the secret", () => {
    const secret = newWebhookSecret();
    const headers = signedHeaders({
      id: "msg_3",
      timestamp: new Date(),
      body,
      secrets: [secret],
    });
    expect(new Webhook(secret).verify(body, { ...headers })).toEqual(
      JSON.parse(body),
    );
  });

  it("during a rotation verifies with the new secret and with the old, not with another", () => {
    const oldSecret = newWebhookSecret();
    const newSecret = newWebhookSecret();
    const headers = signedHeaders({
      id: "msg_4",
      timestamp: new Date(),
      body,
      secrets: [newSecret, oldSecret],
    });
    expect(headers["webhook-signature"].split(" ")).toHaveLength(2);
    expect(new Webhook(newSecret).verify(body, { ...headers })).toEqual(
      JSON.parse(body),
    );
    expect(new Webhook(oldSecret).verify(body, { ...headers })).toEqual(
      JSON.parse(body),
    );
    expect(() =>
      new Webhook(newWebhookSecret()).verify(body, { ...headers }),
    ).toThrow(WebhookVerificationError);
  });

  it("fails verification when the body, the id or the time is changed", () => {
    const secret = newWebhookSecret();
    const now = new Date();
    const headers = signedHeaders({
      id: "msg_5",
      timestamp: now,
      body,
      secrets: [secret],
    });
    const receiver = new Webhook(secret);
    const tampered = body.replace("a1", "a2");
    expect(() => receiver.verify(tampered, { ...headers })).toThrow(
      WebhookVerificationError,
    );
    expect(() =>
      receiver.verify(body, { ...headers, "webhook-id": "msg_6" }),
    ).toThrow(WebhookVerificationError);
    const later = String(Math.floor(now.getTime() / 1000) + 1);
    expect(() =>
      receiver.verify(body, { ...headers, "webhook-timestamp": later }),
    ).toThrow(WebhookVerificationError);
  });

  it("refuses what it cannot sign safely, without repeating the secret", () => {
    const good = {
      id: "msg_7",
      timestamp: new Date(),
      body,
      secrets: [newWebhookSecret()],
    };
    expect(() => signedHeaders({ ...good, secrets: [] })).toThrow(
      /at least one secret/,
    );
    expect(() => signedHeaders({ ...good, id: "msg.7" })).toThrow(/full stop/);
    expect(() => signedHeaders({ ...good, id: "msg 7" })).toThrow(/no space/);
    expect(() => signedHeaders({ ...good, id: "" })).toThrow(/1 to 256/);
    expect(() =>
      signedHeaders({ ...good, timestamp: new Date("nope") }),
    ).toThrow(/valid date/);
    const failure = (secret: string): string => {
      try {
        signedHeaders({ ...good, secrets: [secret] });
        return "signed";
      } catch (error) {
        return (error as Error).message;
      }
    };
    expect(failure("whsec_")).toMatch(/not in the form whsec_<base64>/);
    const stray = "whsec_c2VjcmV0IHdpdGggYSBzdHJheQ== !";
    expect(failure(stray)).toMatch(/not in the form whsec_<base64>/);
    expect(failure(stray)).not.toContain("c2VjcmV0");
  });
});
