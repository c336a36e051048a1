import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPO_ROOT } from "../service/src/env.ts";
import { runCommand } from "../service/src/testing/run-command.ts";

/** The command an operator runs. */
const CONFIG = join(import.meta.dirname, "config");
const KEY = "vics_config_check_key_5f6a7b";
const HASH_KEY = "log-hash-key-0123456789abcdef0123";

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "vics-config-check-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The command with only PATH and `env` in its environment, as a unit's would be. */
const config = (env: Record<string, string>, ...args: string[]) =>
  runCommand(CONFIG, args, { PATH: process.env.PATH ?? "", ...env });

function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

/** The variables a table of README's names, from `heading` to the next `end`. */
function readmeVariables(heading: string, end: string): string[] {
  const readme = readFileSync(join(REPO_ROOT, "README.md"), "utf8");
  const table = readme.slice(
    readme.indexOf(heading),
    readme.indexOf(end, readme.indexOf(heading)),
  );
  return [...table.matchAll(/^\| `([A-Z_]+)`(?: \/ `([A-Z_]+)`)?/gm)].flatMap(
    ([, first, second]) => (second ? [first!, second] : [first!]),
  );
}

const notShown = (names: string[], lines: string[][]) => {
  const shown = new Set(lines.map(([name]) => name));
  return names.filter((name) => !shown.has(name));
};

describe("scripts/config check", { timeout: 60_000 }, () => {
  it("reads a proxy's EnvironmentFile, prints the settings in effect and hides every secret", async () => {
    const keyFile = file("proxy-api-key", `${KEY}\n`);
    const envFile = file(
      "proxy.env",
      [
        "# as deploy/env/proxy.env",
        "HOST=127.0.0.1",
        "UPSTREAM_URL=http://127.0.0.1:3001",
        `UPSTREAM_API_KEY_FILE=${keyFile}`,
        "DATABASE_URL=postgres://vics_app:s3cret@127.0.0.1:5432/vics",
        `LOG_HASH_KEY=${HASH_KEY}`,
        "ALERT_SMTP_URL=smtp://alerts:mailpass@127.0.0.1:2525",
        "ALERT_MAIL_FROM=VICS <vics@fleet.example>",
        "",
      ].join("\n"),
    );
    const checked = await config(
      { PORT: "3201" },
      "check",
      "proxy",
      "--file",
      envFile,
    );
    expect(checked).toMatchObject({ code: 0, stderr: "" });
    const lines = checked.stdout
      .split("\n")
      .map((line) => line.trim().split(/\s{2,}/));
    expect(checked.stdout).toMatch(
      `The proxy's settings in ${envFile} are valid.`,
    );
    // The environment's PORT and the file's settings, each as the proxy would use it.
    // By their variables' names, defaults applied and worked out.
    expect(lines).toContainEqual(["PORT", "3201"]);
    expect(lines).toContainEqual(["UPSTREAM_API_KEY_FILE", keyFile]);
    expect(lines).toContainEqual(["UPSTREAM_API_KEY", "(unset)"]);
    expect(lines).toContainEqual(["LOG_HASH_KEY", "(set, hidden)"]);
    expect(lines).toContainEqual([
      "DATABASE_URL",
      "postgres://vics_app@127.0.0.1:5432/vics",
    ]);
    expect(lines).toContainEqual([
      "ALERT_SMTP_URL",
      "smtp://alerts@127.0.0.1:2525",
    ]);
    expect(lines).toContainEqual(["WEB_DIST", join(REPO_ROOT, "web/dist")]);
    expect(lines).toContainEqual(["SHUTDOWN_GRACE_MS", "11000"]);
    expect(lines).toContainEqual(["OTEL_SERVICE_NAME", "vics-proxy"]);
    expect(lines).toContainEqual([
      "PROXY_DATABASE_PATH",
      "(not used: DATABASE_URL is set)",
    ]);
    // Every variable README's proxy table names is shown, set or not.
    const documented = readmeVariables("### Proxy", "\n## ");
    expect(documented.length).toBeGreaterThan(40);
    expect(notShown(documented, lines)).toEqual([]);
    for (const secret of [KEY, HASH_KEY, "s3cret", "mailpass"])
      expect(checked.stdout).not.toContain(secret);
  });

  it("lists every problem and exits 1, printing no settings", async () => {
    const checked = await config(
      { PORT: "80a", UPSTREAM_API_KEY_FILE: join(dir, "missing-key") },
      "check",
      "proxy",
    );
    expect(checked.code).toBe(1);
    expect(checked.stdout).toBe("");
    expect(checked.stderr).toMatch(
      "The proxy's settings in the environment are not valid; it would not start:",
    );
    expect(checked.stderr).toMatch("PORT");
    expect(checked.stderr).toMatch("missing-key");
  });

  it("checks the service's settings from the environment, a database URL's password hidden", async () => {
    const vesKey = file("ves-key", "ves-key-5e1f\n");
    const checked = await config(
      {
        DATABASE_URL: "postgres://vics:pg-s3cret@127.0.0.1:5432/vics",
        DATABASE_POOL_SIZE: "4",
        // Relative: the service reads it from the repository's root, and it is shown so.
        DVLA_VES_API_KEY_FILE: relative(REPO_ROOT, vesKey),
      },
      "check",
      "service",
    );
    expect(checked).toMatchObject({ code: 0, stderr: "" });
    const lines = checked.stdout
      .split("\n")
      .map((line) => line.trim().split(/\s{2,}/));
    expect(lines).toContainEqual(["PORT", "3001"]);
    expect(lines).toContainEqual(["DATABASE_POOL_SIZE", "4"]);
    expect(lines).toContainEqual([
      "DATABASE_URL",
      "postgres://vics@127.0.0.1:5432/vics",
    ]);
    expect(checked.stdout).not.toContain("pg-s3cret");
    // By their variables' names, set or not, and what the start works out from them.
    expect(lines).toContainEqual([
      "DATABASE_PATH",
      "(not used: DATABASE_URL is set)",
    ]);
    expect(lines).toContainEqual(["SEED_SYNTHETIC_FLEET", "false"]);
    expect(lines).toContainEqual(["RATE_LIMIT_URL", "(unset)"]);
    expect(lines).toContainEqual(["SOURCE_FRESH_HOURS", "24"]);
    expect(lines).toContainEqual(["DVLA_VES_API_KEY_FILE", vesKey]);
    expect(lines).toContainEqual(["DVSA_MOT_API_KEY_FILE", "(unset)"]);
    expect(lines).toContainEqual(["OTEL_SERVICE_NAME", "vics-service"]);
    expect(checked.stdout).not.toContain("ves-key-5e1f");
    expect(checked.stdout).not.toContain("sources.");
    const documented = readmeVariables("### Service", "### Proxy");
    expect(documented.length).toBeGreaterThan(15);
    expect(notShown(documented, lines)).toEqual([]);
    const refused = await config(
      { DATABASE_POOL_SIZE: "0" },
      "check",
      "service",
    );
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch("DATABASE_POOL_SIZE");
  });

  it("says how to call it (exit 2), and names an env file it cannot read (exit 1)", async () => {
    for (const args of [
      [],
      ["check"],
      ["check", "web"],
      ["status", "proxy"],
      ["check", "proxy", "extra"],
    ]) {
      const refused = await config({}, ...args);
      expect(refused.code, args.join(" ")).toBe(2);
      expect(refused.stderr).toMatch(
        "Usage: scripts/config check <service|proxy>",
      );
    }
    const missing = join(dir, "no-such.env");
    const unread = await config({}, "check", "service", "--file", missing);
    expect(unread).toMatchObject({ code: 1, stdout: "" });
    expect(unread.stderr).toBe(`Cannot read ${missing}: ENOENT\n`);
  });
});
