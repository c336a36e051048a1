import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { parseEnv, REPO_ROOT } from "./env.ts";

const KEY = "vics_env_test_key_0a1b2c";

function keyFile(contents: string): string {
  const file = join(mkdtempSync(join(tmpdir(), "vics-proxy-env-")), "key");
  writeFileSync(file, contents);
  return file;
}

function errorsOf(source: Record<string, string>): string[] {
  const result = parseEnv(source);
  if (result.ok) throw new Error("expected the environment to be refused");
  return result.errors;
}

describe("parseEnv", () => {
  it("applies the documented defaults", () => {
    const result = parseEnv({ UPSTREAM_API_KEY: KEY });
    expect(result).toEqual({
      ok: true,
      env: {
        host: "127.0.0.1",
        port: 3000,
        upstreamUrl: "http://127.0.0.1:3001",
        apiKey: KEY,
        timeoutMs: 10000,
        allowRemote: false,
        webRoot: resolve(REPO_ROOT, "web/dist"),
        logLevel: "info",
        // As long as an upstream call may take, and a second more.
        shutdownGraceMs: 11000,
        connectionLimits: {
          maxTotal: 4000,
          maxPerAddress: 1000,
          idleUnderPressureMs: 1000,
        },
      },
    });
    expect(REPO_ROOT).toBe(resolve(import.meta.dirname, "../.."));
  });

  it("reads every variable it is given", () => {
    const result = parseEnv({
      HOST: "::1",
      PORT: "4000",
      UPSTREAM_URL: "https://vics.internal:8443/",
      UPSTREAM_API_KEY: KEY,
      UPSTREAM_TIMEOUT_MS: "2500",
      WEB_DIST: "some/dist",
      LOG_LEVEL: "debug",
    });
    expect(result.ok && result.env).toMatchObject({
      host: "::1",
      port: 4000,
      upstreamUrl: "https://vics.internal:8443/",
      timeoutMs: 2500,
      webRoot: resolve(REPO_ROOT, "some/dist"),
      logLevel: "debug",
    });
  });

  it("reads the connection limits, and refuses one below 1", () => {
    const result = parseEnv({
      UPSTREAM_API_KEY: KEY,
      MAX_CONNECTIONS: "500",
      MAX_CONNECTIONS_PER_ADDRESS: "50",
      IDLE_TIMEOUT_UNDER_PRESSURE_MS: "250",
    });
    expect(result.ok && result.env.connectionLimits).toEqual({
      maxTotal: 500,
      maxPerAddress: 50,
      idleUnderPressureMs: 250,
    });
    expect(
      errorsOf({ UPSTREAM_API_KEY: KEY, MAX_CONNECTIONS: "0" }).join("\n"),
    ).toMatch(/MAX_CONNECTIONS: /);
  });

  it("reads the key from UPSTREAM_API_KEY_FILE, trimmed", () => {
    const result = parseEnv({ UPSTREAM_API_KEY_FILE: keyFile(`  ${KEY}\n`) });
    expect(result.ok && result.env.apiKey).toBe(KEY);
  });

  it("resolves relative WEB_DIST and UPSTREAM_API_KEY_FILE against the repository root", () => {
    // `npm test` runs this in proxy/, where these relative paths would miss; index.test.ts
    // proves the same from a working directory outside the repository.
    const file = keyFile(KEY);
    const result = parseEnv({
      UPSTREAM_API_KEY_FILE: relative(REPO_ROOT, file),
      WEB_DIST: "web/dist",
    });
    expect(result.ok && result.env).toMatchObject({
      apiKey: KEY,
      webRoot: join(REPO_ROOT, "web/dist"),
    });
    expect(errorsOf({ UPSTREAM_API_KEY_FILE: "no/such/key" }).join()).toContain(
      `cannot read ${join(REPO_ROOT, "no/such/key")} (ENOENT)`,
    );
  });

  it.each([
    ["missing", {}, /UPSTREAM_API_KEY or UPSTREAM_API_KEY_FILE must be set/],
    ["empty", { UPSTREAM_API_KEY: "" }, /must be set/],
    ["blank", { UPSTREAM_API_KEY: "   " }, /must be set/],
    [
      "in an empty file",
      { UPSTREAM_API_KEY_FILE: keyFile("\n  \n") },
      /UPSTREAM_API_KEY_FILE: .* is empty/,
    ],
    [
      "in a file that does not exist",
      { UPSTREAM_API_KEY_FILE: "/nonexistent/vics/key" },
      /cannot read \/nonexistent\/vics\/key \(ENOENT\)/,
    ],
    [
      "given twice",
      { UPSTREAM_API_KEY: KEY, UPSTREAM_API_KEY_FILE: keyFile(KEY) },
      /only one of/,
    ],
    [
      "not sendable in a header",
      { UPSTREAM_API_KEY: "two words" },
      /cannot be sent in a header/,
    ],
    ["a placeholder", { UPSTREAM_API_KEY: "x" }, /too short/],
  ])("refuses a key that is %s", (_case, source, message) => {
    const errors = errorsOf(source);
    expect(errors.join("\n")).toMatch(message);
  });

  it("refuses a key file it cannot read as a file", () => {
    // A directory cannot be read as a file even by root, unlike a chmod 000 file.
    const directory = mkdtempSync(join(tmpdir(), "vics-proxy-env-"));
    expect(errorsOf({ UPSTREAM_API_KEY_FILE: directory }).join()).toMatch(
      /cannot read .* \(EISDIR\)/,
    );
  });

  it.each(["0.0.0.0", "192.168.1.10", "::", "example.com"])(
    "refuses HOST=%s without ALLOW_REMOTE, saying there is no staff sign-in, and asks for PUBLIC_ORIGIN",
    (host) => {
      const errors = errorsOf({ HOST: host, UPSTREAM_API_KEY: KEY });
      expect(errors).toHaveLength(2);
      expect(errors[0]).toContain(`HOST=${host} is not a loopback address`);
      expect(errors[0]).toContain("no staff sign-in yet");
      expect(errors[1]).toContain(`HOST=${host} also needs PUBLIC_ORIGIN`);
    },
  );

  it("accepts a remote HOST with ALLOW_REMOTE=true and the public origin", () => {
    const result = parseEnv({
      HOST: "0.0.0.0",
      ALLOW_REMOTE: "true",
      PUBLIC_ORIGIN: "https://VICS.example.org:443/",
      UPSTREAM_API_KEY: KEY,
    });
    expect(result.ok && result.env).toMatchObject({
      host: "0.0.0.0",
      allowRemote: true,
      publicOrigin: "https://vics.example.org",
    });
  });

  it("refuses a remote HOST with ALLOW_REMOTE=true but no PUBLIC_ORIGIN: the Host check needs it", () => {
    const errors = errorsOf({
      HOST: "0.0.0.0",
      ALLOW_REMOTE: "true",
      UPSTREAM_API_KEY: KEY,
    });
    expect(errors).toEqual([
      expect.stringMatching(
        /HOST=0\.0\.0\.0 also needs PUBLIC_ORIGIN.*DNS rebinding/,
      ),
    ]);
  });

  it.each([
    ["a path", "https://vics.example.org/app"],
    ["a query", "https://vics.example.org/?a=1"],
    ["credentials", "https://user:pw@vics.example.org"],
    ["another scheme", "ftp://vics.example.org"],
    ["no scheme", "vics.example.org"],
  ])("refuses a PUBLIC_ORIGIN with %s", (_case, origin) => {
    const errors = errorsOf({ PUBLIC_ORIGIN: origin, UPSTREAM_API_KEY: KEY });
    expect(errors.join("\n")).toMatch(/^PUBLIC_ORIGIN: must be/);
  });

  it("keeps a PUBLIC_ORIGIN on loopback too (behind a reverse proxy on this machine)", () => {
    const result = parseEnv({
      PUBLIC_ORIGIN: "http://127.0.0.1:8080",
      UPSTREAM_API_KEY: KEY,
    });
    expect(result.ok && result.env.publicOrigin).toBe("http://127.0.0.1:8080");
  });

  it("remembers the key file (to read it again on SIGHUP) and takes SHUTDOWN_GRACE_MS", () => {
    const file = keyFile(KEY);
    const result = parseEnv({
      UPSTREAM_API_KEY_FILE: relative(REPO_ROOT, file),
      SHUTDOWN_GRACE_MS: "250",
    });
    expect(result.ok && result.env).toMatchObject({
      apiKeyFile: file,
      shutdownGraceMs: 250,
    });
  });

  it("does not treat other ALLOW_REMOTE values as consent", () => {
    const errors = errorsOf({
      HOST: "0.0.0.0",
      ALLOW_REMOTE: "yes",
      UPSTREAM_API_KEY: KEY,
    });
    expect(errors.join("\n")).toMatch(
      /ALLOW_REMOTE: must be "true" or "false"/,
    );
    expect(errors.join("\n")).toMatch(/no staff sign-in/);
  });

  it("refuses a time-out too long for a timer, which would fire at once", () => {
    const errors = errorsOf({
      UPSTREAM_TIMEOUT_MS: "2147483648",
      UPSTREAM_API_KEY: KEY,
    });
    expect(errors.join("\n")).toMatch(
      /UPSTREAM_TIMEOUT_MS: must be at most 2147483647/,
    );
  });

  it("reports every bad variable at once, and never the key", () => {
    const errors = errorsOf({
      HOST: "10.0.0.5",
      PUBLIC_ORIGIN: "http://10.0.0.5:3000",
      PORT: "eighty",
      UPSTREAM_URL: "ftp://files.example",
      UPSTREAM_TIMEOUT_MS: "-5",
      LOG_LEVEL: "chatty",
      UPSTREAM_API_KEY: `${KEY} oops`,
    });
    const text = errors.join("\n");
    for (const name of [
      "PORT",
      "UPSTREAM_URL",
      "UPSTREAM_TIMEOUT_MS",
      "LOG_LEVEL",
      "HOST",
    ])
      expect(text).toContain(name);
    expect(text).toMatch(/cannot be sent in a header/);
    expect(errors).toHaveLength(6);
    expect(text).not.toContain(KEY);
  });
});
