import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { apiKeyHolder } from "./key-reload.ts";
import { createLogger } from "@vics/server-kit/logger";
import { createTestProxy, fakeUpstream } from "../../testing/index.ts";

const OLD_KEY = "vics_old_key_0123456789abcdef";
const NEW_KEY = "vics_new_key_fedcba9876543210";

function setUp(keyFile?: string) {
  const lines: string[] = [];
  const secrets = [OLD_KEY];
  const logger = createLogger({
    service: "proxy",
    secrets,
    destination: { write: (line: string) => void lines.push(line) },
  });
  const holder = apiKeyHolder({ key: OLD_KEY, keyFile, logger, secrets });
  return { holder, lines, logger, secrets };
}

function keyFileWith(contents: string): string {
  const file = join(mkdtempSync(join(tmpdir(), "vics-reload-")), "key");
  writeFileSync(file, contents);
  return file;
}

describe("apiKeyHolder", () => {
  it("reload: the file's new key from then on, logged without the key, and masked if anything ever logs it", () => {
    const file = keyFileWith(`${NEW_KEY}\n`);
    const { holder, lines, logger, secrets } = setUp(file);
    holder.reload();
    expect(holder.current()).toBe(NEW_KEY);
    expect(secrets).toEqual([OLD_KEY, NEW_KEY]);
    expect(JSON.parse(lines[0] ?? "")).toMatchObject({
      msg: "api key reloaded",
      changed: true,
    });
    logger.error("a library echoed it", { error: `bad key ${NEW_KEY}` });
    expect(lines.join("")).not.toContain(NEW_KEY);
    holder.reload();
    expect(JSON.parse(lines.at(-1) ?? "")).toMatchObject({ changed: false });
  });

  it.each([
    ["empty", "\n", /is empty/],
    ["a placeholder", "changeme", /too short/],
    ["with a space", "vics_new key_fedcba9876543210", /cannot be sent/],
  ])(
    "a file %s: the old key stays, an error says why",
    (_case, contents, reason) => {
      const { holder, lines } = setUp(keyFileWith(contents));
      holder.reload();
      expect(holder.current()).toBe(OLD_KEY);
      expect(JSON.parse(lines[0] ?? "")).toMatchObject({
        level: "error",
        msg: "api key not reloaded; the proxy keeps its key",
        reason: expect.stringMatching(reason),
      });
    },
  );

  it("a file that has gone: the old key stays", () => {
    const { holder } = setUp("/nonexistent/vics-key");
    holder.reload();
    expect(holder.current()).toBe(OLD_KEY);
  });

  it("a key given in UPSTREAM_API_KEY cannot be reloaded: a warning says how to rotate", () => {
    const { holder, lines } = setUp(undefined);
    holder.reload();
    expect(holder.current()).toBe(OLD_KEY);
    expect(JSON.parse(lines[0] ?? "").msg).toMatch(/UPSTREAM_API_KEY_FILE/);
  });
});

describe("the app with a key that changes", () => {
  it("sends the current key on each request, without being built again", async () => {
    let key = OLD_KEY;
    const upstream = fakeUpstream();
    const { app } = createTestProxy({
      fetch: upstream.fetch,
      apiKey: () => key,
    });
    await app.request("/api/v1/compliance/AB12CDE");
    key = NEW_KEY;
    await app.request("/api/v1/compliance/AB12CDE");
    expect(upstream.requests.map((r) => r.headers.get("X-API-Key"))).toEqual([
      OLD_KEY,
      NEW_KEY,
    ]);
  });
});
