import { afterEach, describe, expect, it } from "vitest";
import { TOKEN_MARGIN_MS, createTokenCache } from "./dvsa-token.ts";
import { SourceError } from "./source.ts";
import {
  type MotStandIn,
  startMotStandIn,
} from "../testing/sources/mot-stand-in.ts";

const open: MotStandIn[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((stand) => stand.close()));
});

const START = Date.parse("2026-11-29T09:00:00Z");

async function setUp(
  overrides: { clientSecret?: string; scope?: string } = {},
) {
  const clock = { ms: START };
  const stand = await startMotStandIn({ now: () => clock.ms });
  open.push(stand);
  const tokens = createTokenCache({
    tokenUrl: stand.tokenUrl,
    clientId: stand.clientId,
    clientSecret: overrides.clientSecret ?? stand.clientSecret,
    scope: overrides.scope ?? stand.scope,
    now: () => new Date(clock.ms),
  });
  return { stand, tokens, clock };
}

/** The refusal, checked to carry no credential: not the secret, the key, nor any token. */
async function refusal(
  promise: Promise<unknown>,
  stand: MotStandIn,
): Promise<SourceError> {
  const error: unknown = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(SourceError);
  const text = `${String(error)} ${JSON.stringify(error)}`;
  for (const secret of [stand.clientSecret, stand.apiKey, "stand-in-token-"])
    expect(text).not.toContain(secret);
  return error as SourceError;
}

describe("the DVSA token cache", () => {
  it("asks for one token for many look-ups while it is valid", async () => {
    const { stand, tokens } = await setUp();
    const first = await tokens.token();
    for (let i = 0; i < 20; i++) expect(await tokens.token()).toBe(first);
    expect(stand.tokensIssued).toBe(1);
  });

  it("shares one token request between concurrent callers", async () => {
    const { stand, tokens } = await setUp();
    const all = await Promise.all(
      Array.from({ length: 10 }, () => tokens.token()),
    );
    expect(new Set(all).size).toBe(1);
    expect(stand.tokensIssued).toBe(1);
  });

  it("renews the token a minute before Entra's expires_in runs out, not sooner", async () => {
    const { stand, tokens, clock } = await setUp();
    const first = await tokens.token();
    clock.ms += stand.tokenLifetimeSeconds * 1000 - TOKEN_MARGIN_MS - 1;
    expect(await tokens.token()).toBe(first);
    clock.ms += 1;
    expect(await tokens.token()).not.toBe(first);
    expect(stand.tokensIssued).toBe(2);
  });

  it("forgets only the token the API refused, so late callers do not drop a fresh one", async () => {
    const { stand, tokens } = await setUp();
    const stale = await tokens.token();
    tokens.invalidate(stale);
    const fresh = await tokens.token();
    tokens.invalidate(stale);
    expect(await tokens.token()).toBe(fresh);
    expect(stand.tokensIssued).toBe(2);
  });

  it("sends the client-credentials form to the token URL", async () => {
    const { stand, tokens } = await setUp();
    await tokens.token();
    expect(stand.requests).toEqual([
      { method: "POST", path: new URL(stand.tokenUrl).pathname, status: 200 },
    ]);
  });

  it("says a wrong client secret is refused, and that secrets expire", async () => {
    const { stand, tokens } = await setUp({ clientSecret: "not-the-secret" });
    const error = await refusal(tokens.token(), stand);
    expect(error.kind).toBe("credentials");
    expect(error.message).toMatch(
      /refused the client secret.*expired.*two years.*new one/,
    );
    expect(error.message).not.toContain("not-the-secret");
  });

  it("says an expired client secret has expired and how to get a new one", async () => {
    const { stand, tokens } = await setUp();
    stand.secretExpired = true;
    const error = await refusal(tokens.token(), stand);
    expect(error).toMatchObject({ kind: "credentials", status: 401 });
    expect(error.message).toMatch(
      /client secret because it has expired \(AADSTS7000222\)/,
    );
    expect(error.message).toMatch(/client secret file/);
  });

  it("names the scope when Entra refuses it", async () => {
    const { stand, tokens } = await setUp({
      scope: "https://example.test/.default",
    });
    const error = await refusal(tokens.token(), stand);
    expect(error.kind).toBe("credentials");
    expect(error.message).toContain("https://tapi.dvsa.gov.uk/.default");
  });

  it("calls a token endpoint that cannot be reached unavailable", async () => {
    const { stand, tokens } = await setUp();
    await stand.close();
    const error = await refusal(tokens.token(), stand);
    expect(error.kind).toBe("unavailable");
  });

  it("rejects a caller who gives up with its reason, and still caches the token for others", async () => {
    const { stand, tokens } = await setUp();
    const controller = new AbortController();
    const reason = new Error("check cancelled");
    const waiting = tokens.token(controller.signal);
    const other = tokens.token();
    controller.abort(reason);
    await expect(waiting).rejects.toBe(reason);
    expect(await other).toBe(await tokens.token());
    expect(stand.tokensIssued).toBe(1);
  });
});
