import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ProxyStore } from "../store/proxy-store.ts";
import { openSqliteProxyStore } from "../store/sqlite/sqlite-proxy-store.ts";
import { parseStoreEnv } from "../../env/store-env.ts";
import type { AdminContext } from "./user-admin.ts";
import { userCommand, UsageError } from "./user-commands.ts";

let store: ProxyStore;
let context: AdminContext;
let lines: string[];
const run = (positionals: string[], options = {}) =>
  userCommand(context, positionals, options, (line) => lines.push(line));

beforeEach(() => {
  store = openSqliteProxyStore({ path: ":memory:", auditRetentionDays: 30 });
  context = {
    store,
    actor: {
      userId: null,
      email: "scripts/users (ops)",
      clientAddress: null,
      requestId: null,
    },
    origin: "http://127.0.0.1:3000",
    now: () => Date.parse("2026-11-24T10:00:00Z"),
  };
  lines = [];
});
afterEach(() => store.close());

describe("scripts/users", () => {
  it("creates the first admin and prints a one-time set-password link", async () => {
    await run(["create"], { email: "root@example.org", admin: true });
    expect(lines[0]).toBe("Created root@example.org (admin).");
    expect(lines[1]).toBe(
      "Send them this link to set their password; it works once, until 27 November 2026 at 10:00 (UK time):",
    );
    expect(lines[2]).toMatch(
      /^http:\/\/127\.0\.0\.1:3000\/account\/set-password#token=[\w-]{43}$/,
    );
  });

  it("lists users with their role and state", async () => {
    await run(["list"]);
    expect(lines).toEqual([
      "No users yet. Create the first admin: scripts/users create --admin --email <email>",
    ]);
    await run(["create"], { email: "root@example.org", admin: true });
    await run(["create"], {
      email: "ann@example.org",
      name: "Ann",
      role: "fleet",
    });
    await run(["disable", "ann@example.org"]);
    lines = [];
    await run(["list"]);
    expect(lines).toEqual([
      "ann@example.org\tfleet\tdisabled\tAnn",
      "root@example.org\tadmin\tinvited",
    ]);
  });

  it("refuses what it cannot do, in words", async () => {
    await expect(run(["create"], {})).rejects.toBeInstanceOf(UsageError);
    await expect(
      run(["create"], { email: "a@example.org", role: "boss" }),
    ).rejects.toThrow("The role must be one of staff, fleet, admin.");
    await expect(run(["role"])).rejects.toThrow(
      '"role" needs the user\'s email.',
    );
    await expect(run(["frob"])).rejects.toThrow('Unknown command "frob".');
  });
});

describe("the store's environment", () => {
  it("defaults to data/proxy.sqlite, 400 days of audit, and links on the loopback port", () => {
    const result = parseStoreEnv({ PORT: "4000" });
    expect(result.ok && result.env.databasePath).toMatch(
      /\/data\/proxy\.sqlite$/,
    );
    expect(result.ok && result.env.auditRetentionDays).toBe(400);
    expect(result.ok && result.env.linkOrigin).toBe("http://127.0.0.1:4000");
    const publicResult = parseStoreEnv({
      PUBLIC_ORIGIN: "https://vics.example.org",
    });
    expect(publicResult.ok && publicResult.env.linkOrigin).toBe(
      "https://vics.example.org",
    );
    expect(parseStoreEnv({ AUDIT_RETENTION_DAYS: "0" })).toMatchObject({
      ok: false,
    });
  });
});
