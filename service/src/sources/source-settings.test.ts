import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parseEnv } from "../env.ts";
import { MOT_DEFAULT_SCOPE, VES_PRODUCTION_URL } from "./source-settings.ts";

const dir = mkdtempSync(join(tmpdir(), "vics-source-env-"));
const file = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const MOT = () => ({
  DVSA_MOT_API_KEY_FILE: file("mot-key", "the-mot-key\n"),
  DVSA_MOT_CLIENT_ID: "client-1",
  DVSA_MOT_CLIENT_SECRET_FILE: file("mot-secret", "the-secret\n"),
  DVSA_MOT_TOKEN_URL: "https://login.example/tenant/oauth2/v2.0/token",
});

describe("the live sources' settings", () => {
  it("are off when no key file is set", () => {
    const parsed = parseEnv({});
    expect(parsed.ok && parsed.env.sources).toEqual({
      freshForMs: 86_400_000,
      waitMs: 2000,
      bulkWaitMs: 5000,
    });
  });

  it("turn DVLA VES on with its key file, at the production address unless told", () => {
    const parsed = parseEnv({
      DVLA_VES_API_KEY_FILE: file("ves-key", " the-ves-key \n"),
      DVLA_VES_PER_SECOND: "5",
      SOURCE_FRESH_HOURS: "12",
    });
    expect(parsed.ok && parsed.env.sources).toMatchObject({
      freshForMs: 12 * 3_600_000,
      ves: {
        baseUrl: VES_PRODUCTION_URL,
        apiKey: "the-ves-key",
        pace: { perSecond: 5 },
      },
    });
    expect(parsed.ok && "DVLA_VES_API_KEY_FILE" in parsed.env).toBe(false);
  });

  it("turn DVSA MOT History on with all four of its settings, and read its secrets from files", () => {
    const parsed = parseEnv({
      ...MOT(),
      DVSA_MOT_CLIENT_SECRET_EXPIRES: "2028-11-01",
      DVSA_MOT_BASE_URL: "http://127.0.0.1:4011/",
    });
    expect(parsed.ok && parsed.env.sources.mot).toEqual({
      baseUrl: "http://127.0.0.1:4011",
      apiKey: "the-mot-key",
      clientId: "client-1",
      clientSecret: "the-secret",
      secretExpires: "2028-11-01",
      tokenUrl: "https://login.example/tenant/oauth2/v2.0/token",
      scope: MOT_DEFAULT_SCOPE,
      pace: {},
    });
  });

  it("refuse a DVSA source with some of its settings, naming what is missing", () => {
    const { DVSA_MOT_TOKEN_URL: _left, ...partial } = MOT();
    const parsed = parseEnv(partial);
    expect(parsed.ok ? [] : parsed.problems).toEqual([
      expect.stringContaining("missing: DVSA_MOT_TOKEN_URL"),
    ]);
  });

  it("refuse an unreadable or empty key file without showing any secret", () => {
    const missing = parseEnv({ DVLA_VES_API_KEY_FILE: join(dir, "absent") });
    expect(missing.ok ? [] : missing.problems).toEqual([
      expect.stringMatching(
        /^DVLA_VES_API_KEY_FILE: cannot read .*absent \(ENOENT\)$/,
      ),
    ]);
    const empty = parseEnv({ DVLA_VES_API_KEY_FILE: file("empty", "  \n") });
    expect(empty.ok ? [] : empty.problems).toEqual([
      expect.stringMatching(/^DVLA_VES_API_KEY_FILE: .* is empty$/),
    ]);
  });

  it("refuse a bad address, count or date in words", () => {
    const parsed = parseEnv({
      DVLA_VES_BASE_URL: "ftp://register.example",
      DVSA_MOT_PER_DAY: "lots",
      DVSA_MOT_CLIENT_SECRET_EXPIRES: "01/11/2028",
    });
    expect(parsed.ok ? [] : parsed.problems).toEqual([
      "DVLA_VES_BASE_URL: must be an http:// or https:// URL",
      "DVSA_MOT_CLIENT_SECRET_EXPIRES: must be a date, YYYY-MM-DD",
      "DVSA_MOT_PER_DAY: must be a whole number, at least 1",
    ]);
  });
});
