// A burst of wrong sign-ins while a signed-in user works (issue 33, point 1): the real service
// and proxy on loopback, a web root of a page and a 512 KiB script (read from disk, as the built
// app is), and a signed-in fleet user who loads the page, its script and a compliance check in
// turn. Their latency is measured at rest, then while 400 wrong sign-ins (unknown emails, from
// 100 loopback addresses) are kept in flight. Before the fix, queued hashes filled libuv's pool
// and the page took 34 s. Bounded in time (at most a minute of burst) and in requests.
import { once } from "node:events";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { AUTH_PATHS, CLIENT_HEADER } from "@vics/shared";
import { Worker } from "node:worker_threads";
import { percentile } from "../../bench/percentile.ts";
import { signedInCookie, startServers } from "../load/stack.ts";

export const name = "sign-in-burst";

/**
 * Other users' p99 during the burst must stay under this. It was 34 s, the hashes queued in
 * libuv's pool. What is left is the flood's own queue: 400 requests in flight in one event loop
 * answered a few hundred a second on a busy two-core machine.
 */
const P99_BOUND_MS = 3_000;
/** Signed-in users working at once, each loading the page, its script and a check in turn. */
const USERS = 4;
const IN_FLIGHT = 400;
const ADDRESSES = 100;

type Part = "page" | "script" | "check";

function webRoot(): string {
  const root = mkdtempSync(join(tmpdir(), "vics-attack-web-"));
  mkdirSync(join(root, "assets"));
  writeFileSync(
    join(root, "index.html"),
    '<!doctype html><script type="module" src="/assets/app-a1b2c3.js"></script>',
  );
  writeFileSync(
    join(root, "assets/app-a1b2c3.js"),
    `console.log(${JSON.stringify("x".repeat(512 * 1024))});`,
  );
  return root;
}

/** The signed-in user's page, script and check, in turn, until `until()` says stop. */
async function measure(
  proxyUrl: string,
  cookie: string,
  until: () => boolean,
  maxRounds: number,
): Promise<Record<Part, number[]>> {
  const times: Record<Part, number[]> = { page: [], script: [], check: [] };
  const headers = { Cookie: cookie, [CLIENT_HEADER]: "web" };
  const paths: [Part, string][] = [
    ["page", "/fleet"],
    ["script", "/assets/app-a1b2c3.js"],
    ["check", "/api/v1/compliance/AB12CDE"],
  ];
  for (let round = 0; round < maxRounds && !until(); round++)
    for (const [part, path] of paths) {
      const started = performance.now();
      const response = await fetch(proxyUrl + path, { headers });
      await response.arrayBuffer();
      if (response.status !== 200)
        throw new Error(`${path} answered ${response.status}`);
      times[part].push(performance.now() - started);
    }
  return times;
}

/** USERS of them at once (one session: the proxy counts a person's work, not a tab's). */
async function measureUsers(
  proxyUrl: string,
  cookie: string,
  until: () => boolean,
): Promise<Record<Part, number[]>> {
  const each = await Promise.all(
    Array.from({ length: USERS }, () =>
      measure(proxyUrl, cookie, until, 5_000),
    ),
  );
  return {
    page: each.flatMap((times) => times.page),
    script: each.flatMap((times) => times.script),
    check: each.flatMap((times) => times.check),
  };
}

const summary = (label: string, times: Record<Part, number[]>) =>
  (Object.entries(times) as [Part, number[]][]).map(([part, list]) => {
    const sorted = [...list].sort((a, b) => a - b);
    return `  ${label} ${part.padEnd(6)} n=${String(sorted.length).padStart(4)}  p50 ${percentile(sorted, 50).toFixed(1)} ms  p99 ${percentile(sorted, 99).toFixed(1)} ms`;
  });

/**
 * The attacker, on a worker thread: IN_FLIGHT loops, each posting a wrong sign-in for an unknown
 * email on a new connection from one of ADDRESSES loopback addresses (127.0.2.x), until
 * `endsAt`. Plain JavaScript, so the worker needs no loader. Resolves to the count per status.
 */
async function burst(
  proxyUrl: string,
  endsAt: number,
): Promise<Map<string, number>> {
  const worker = new Worker(
    `
    const { request } = require("node:http");
    const { workerData, parentPort } = require("node:worker_threads");
    const { url, endsAt, inFlight, addresses, path, client } = workerData;
    const statuses = {};
    let sent = 0;
    const once = (i) => new Promise((resolve) => {
      const body = JSON.stringify({ email: "nobody" + i + "@example.org", password: "wrong password " + i });
      const outgoing = request(new URL(path, url), {
        method: "POST", agent: false, localAddress: "127.0.2." + ((i % addresses) + 1),
        headers: { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(body), ...client },
      });
      outgoing.setTimeout(30000, () => outgoing.destroy());
      outgoing.on("response", (response) => {
        response.resume();
        response.on("end", () => resolve(String(response.statusCode)));
      });
      outgoing.on("error", () => resolve("error"));
      outgoing.end(body);
    });
    const loop = async () => {
      while (Date.now() < endsAt && sent < 400000) {
        const status = await once(sent++);
        statuses[status] = (statuses[status] || 0) + 1;
      }
    };
    Promise.all(Array.from({ length: inFlight }, loop)).then(() => parentPort.postMessage(statuses));
    `,
    {
      eval: true,
      workerData: {
        url: proxyUrl,
        endsAt,
        inFlight: IN_FLIGHT,
        addresses: ADDRESSES,
        path: AUTH_PATHS.signIn,
        client: { [CLIENT_HEADER]: "web" },
      },
    },
  );
  const [counts] = (await once(worker, "message")) as [Record<string, number>];
  await worker.terminate();
  return new Map(Object.entries(counts));
}

export async function run({ quick }: { quick: boolean }) {
  const seconds = quick ? 4 : 15;
  const dataDir = mkdtempSync(join(tmpdir(), "vics-attack-"));
  const root = webRoot();
  try {
    const { proxy, proxyDatabasePath } = await startServers({
      dataDir,
      serviceEnv: { LOG_LEVEL: "warn" },
      proxyEnv: { WEB_DIST: root, LOG_LEVEL: "warn" },
    });
    const cookie = await signedInCookie(`${proxy.url}/`, proxyDatabasePath);

    // Warm-up, then at rest.
    await measure(proxy.url, cookie, () => false, 20);
    const restEnds = Date.now() + seconds * 1000;
    const atRest = await measureUsers(
      proxy.url,
      cookie,
      () => Date.now() > restEnds,
    );

    // The burst: IN_FLIGHT wrong sign-ins kept in flight for `seconds`, each on a connection
    // of its own, from a thread of its own, so the user's requests here do not wait behind the
    // attacker's in this event loop; meanwhile the user goes on working.
    const burstEnds = Date.now() + seconds * 1000;
    const [statuses, during] = await Promise.all([
      burst(proxy.url, burstEnds),
      measureUsers(proxy.url, cookie, () => Date.now() > burstEnds),
    ]);
    const sent = [...statuses.values()].reduce((sum, n) => sum + n, 0);
    const refused = statuses.get("429") ?? 0;
    const checked = statuses.get("401") ?? 0;
    const other = sent - refused - checked;
    const p99s = (Object.values(during) as number[][]).map((list) =>
      percentile(
        [...list].sort((a, b) => a - b),
        99,
      ),
    );
    const worst = Math.max(...p99s);
    const ok = refused > 0 && other === 0 && worst <= P99_BOUND_MS;
    return {
      ok,
      lines: [
        `${USERS} signed-in users' requests, ${seconds} s at rest and ${seconds} s during ${IN_FLIGHT} wrong sign-ins kept in flight from ${ADDRESSES} addresses:`,
        ...summary("at rest", atRest),
        ...summary("burst  ", during),
        `  sign-ins sent ${sent}: ${checked} checked (401), ${refused} refused at once (429), ${other} other`,
        `  worst p99 during the burst ${worst.toFixed(1)} ms; bound ${P99_BOUND_MS} ms; load average ${loadavg()
          .map((load) => load.toFixed(1))
          .join(" ")} on ${availableParallelism()} cores`,
      ],
    };
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(root, { recursive: true, force: true });
  }
}
