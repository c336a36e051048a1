// A new secret has the Standard Webhooks form, enough randomness, and works with the
// standardwebhooks library a receiver would use.
import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { WEBHOOK_SECRET_BYTES, newWebhookSecret } from "./webhook-secret.ts";

describe("newWebhookSecret", () => {
  it("is whsec_ and the base64 of 32 random bytes", () => {
    const secret = newWebhookSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]+={0,2}$/);
    const bytes = Buffer.from(secret.slice("whsec_".length), "base64");
    expect(bytes.length).toBe(WEBHOOK_SECRET_BYTES);
    expect(bytes.length).toBeGreaterThanOrEqual(24);
  });

  it("is different every time", () => {
    const secrets = new Set(Array.from({ length: 50 }, newWebhookSecret));
    expect(secrets.size).toBe(50);
  });

  it("signs and verifies with the standardwebhooks library", () => {
    const webhook = new Webhook(newWebhookSecret());
    const now = new Date();
    const body = '{"type":"alert.opened"}';
    const signature = webhook.sign("msg_1", now, body);
    const headers = {
      "webhook-id": "msg_1",
      "webhook-timestamp": String(Math.floor(now.getTime() / 1000)),
      "webhook-signature": signature,
    };
    expect(webhook.verify(body, headers)).toEqual({ type: "alert.opened" });
    expect(() => new Webhook(newWebhookSecret()).verify(body, headers)).toThrow(
      /No matching signature/,
    );
  });
});
