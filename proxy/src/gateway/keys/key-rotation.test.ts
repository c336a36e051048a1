import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { CLIENT_HEADER, ComplianceRecordSchema } from "@vics/shared";
import {
  PROXY_ENTRY,
  type RunningChild,
  SERVICE_ENTRY,
  byMessage,
  keysCli,
  signInAsFirstAdmin,
  startNode,
  swapKeyFile,
} from "../../testing/child-processes.ts";

/**
 * Key rotation without downtime, as docs/operations.md's runbook does it, on the real
 * service and the real proxy: create a new key, swap the file, SIGHUP, wait for the requests
 * sent with the old key, revoke it. A steady stream of requests runs throughout.
 */

const WORKERS = 20;
const AFTER_REVOCATION = 400;

const children: RunningChild[] = [];

afterEach(() => {
  for (const child of children.splice(0))
    if (child.process.exitCode === null) child.process.kill("SIGKILL");
});

async function startStack(dir: string) {
  const databasePath = join(dir, "vics.sqlite");
  const service = startNode(SERVICE_ENTRY, {
    HOST: "127.0.0.1",
    PORT: "0",
    DATABASE_PATH: databasePath,
  });
  children.push(service);
  const serviceUrl = String(
    (await service.waitFor(byMessage("listening"))).url,
  );
  const oldKey = await keysCli(
    databasePath,
    ...["create", "--plan", "internal", "--name", "proxy-old"],
  );
  const keyFile = join(dir, "proxy-api-key");
  writeFileSync(keyFile, `${oldKey}\n`, { mode: 0o600 });
  const proxy = startNode(PROXY_ENTRY, {
    PORT: "0",
    UPSTREAM_URL: serviceUrl,
    UPSTREAM_API_KEY_FILE: keyFile,
    WEB_DIST: dir,
  });
  children.push(proxy);
  const proxyUrl = String((await proxy.waitFor(byMessage("listening"))).url);
  const cookie = await signInAsFirstAdmin(proxy, proxyUrl);
  return {
    cookie,
    databasePath,
    service,
    serviceUrl,
    oldKey,
    keyFile,
    proxy,
    proxyUrl,
  };
}

/** 20 clients, each sending its next check as soon as the last is answered, until stopped. */
function steadyStream(proxyUrl: string, cookie: string) {
  const statuses: number[] = [];
  const inFlight = new Set<Promise<void>>();
  const progress: Array<{ count: number; resolve: () => void }> = [];
  let stopped = false;
  const one = async () => {
    const response = await fetch(`${proxyUrl}api/v1/compliance/AB12CDE`, {
      headers: { [CLIENT_HEADER]: "rotation-test", Cookie: cookie },
    });
    const body: unknown = await response.json();
    statuses.push(response.status);
    if (response.status === 200) ComplianceRecordSchema.parse(body);
    for (const waiter of progress.filter((w) => statuses.length >= w.count)) {
      progress.splice(progress.indexOf(waiter), 1);
      waiter.resolve();
    }
  };
  const worker = async () => {
    while (!stopped) {
      const request = one().catch(() => void statuses.push(0));
      inFlight.add(request);
      await request;
      inFlight.delete(request);
    }
  };
  const workers = Array.from({ length: WORKERS }, worker);
  return {
    statuses,
    /** Resolves once `count` requests in all have been answered. */
    answered: (count: number) =>
      new Promise<void>((resolve) =>
        statuses.length >= count
          ? resolve()
          : progress.push({ count, resolve }),
      ),
    /** The requests sent but not yet answered, now. */
    inFlightNow: () => Promise.all([...inFlight]),
    stop: async () => {
      stopped = true;
      await Promise.all(workers);
    },
  };
}

describe("rotating the proxy's key (SIGHUP)", () => {
  it("no request fails while the key is swapped and the old one revoked; afterwards the old key is refused", async () => {
    const dir = mkdtempSync(join(tmpdir(), "vics-rotation-"));
    const stack = await startStack(dir);
    const stream = steadyStream(stack.proxyUrl, stack.cookie);
    await stream.answered(200);

    // 1. Create a new key.
    const newKey = await keysCli(
      stack.databasePath,
      ...["create", "--plan", "internal", "--name", "proxy-new"],
    );
    // 2. Swap the file (a new file, then a rename).
    swapKeyFile(stack.keyFile, newKey);
    // 3. SIGHUP, and wait for the proxy to say it reloaded.
    stack.proxy.process.kill("SIGHUP");
    const reloaded = await stack.proxy.waitFor(byMessage("api key reloaded"));
    expect(reloaded).toMatchObject({ level: "info", changed: true });
    // 4. Revoke the old key once every request that may carry it has been answered.
    await stream.inFlightNow();
    await keysCli(stack.databasePath, "revoke", "proxy-old");
    const atRevocation = stream.statuses.length;
    await stream.answered(atRevocation + AFTER_REVOCATION);
    await stream.stop();

    expect(stream.statuses.length).toBeGreaterThan(
      atRevocation + AFTER_REVOCATION - 1,
    );
    // Not one 401, 502 or dropped connection, before, during or after.
    expect(stream.statuses.filter((status) => status !== 200)).toEqual([]);

    // The service itself: the old key is revoked, the new one works.
    const ask = (key: string) =>
      fetch(`${stack.serviceUrl}/v1/compliance/AB12CDE`, {
        headers: { "X-API-Key": key },
      });
    // The service remembers a found key for KEY_CACHE_TTL_MS (2 s): the revocation made by
    // the keys command in another process applies within that (docs/operations.md).
    await expect
      .poll(async () => (await ask(stack.oldKey)).status, { timeout: 10_000 })
      .toBe(401);
    expect((await ask(newKey)).status).toBe(200);

    stack.proxy.process.kill("SIGTERM");
    expect((await stack.proxy.exited).code).toBe(0);
    const logged = stack.proxy.stdout() + stack.proxy.stderr();
    expect(logged).not.toContain(stack.oldKey);
    expect(logged).not.toContain(newKey);
  }, 60_000);

  it("a key file that cannot be used keeps the key the proxy has, and says so", async () => {
    const dir = mkdtempSync(join(tmpdir(), "vics-rotation-"));
    const stack = await startStack(dir);
    for (const [contents, reason] of [
      ["\n", /is empty/],
      ["short", /too short/],
      ["two words here and more than twenty", /cannot be sent in a header/],
    ] as const) {
      writeFileSync(stack.keyFile, contents);
      const before = stack.proxy.events().length;
      stack.proxy.process.kill("SIGHUP");
      const refused = await stack.proxy.waitFor(
        (event) =>
          event.msg === "api key not reloaded; the proxy keeps its key" &&
          stack.proxy.events().indexOf(event) >= before,
      );
      expect(refused).toMatchObject({
        level: "error",
        reason: expect.stringMatching(reason),
      });
      const response = await fetch(
        `${stack.proxyUrl}api/v1/compliance/AB12CDE`,
        {
          headers: { [CLIENT_HEADER]: "rotation-test", Cookie: stack.cookie },
        },
      );
      expect(response.status).toBe(200);
    }
    stack.proxy.process.kill("SIGTERM");
    expect((await stack.proxy.exited).code).toBe(0);
    expect(stack.proxy.stdout()).not.toContain(stack.oldKey);
  }, 60_000);
});
