// Is the memory that stays high after an attack a leak? Starts the real service and proxy on
// loopback, each with a probe (scripts/memory/gc-probe.ts, loaded only here) that collects all
// garbage and reports process.memoryUsage() on SIGUSR2. Then, for each round: idle sockets,
// checks with oversized headers, wrong keys, and oversized bulk bodies against both, a few
// seconds idle, and a measure after GC. The proxy's checks (warm-up, oversized headers and
// bodies) are a signed-in fleet user's, so they reach what they did before sign-in (forwarding,
// the body limit) and the session lookup and audit write besides; the round also sends checks
// with no session, which the proxy refuses with a 401. A leak is live heap that grows round after round; RSS
// that stays up while the heap comes back down is the allocator keeping memory for reuse.
//
// `node scripts/memory-after-attack.ts` (under scripts/node24); `-- --rounds 2 --scale 0.25` for
// a quick look. Bounded: about 40 s a round at scale 1, and it gives up after 15 minutes.
import { mkdtempSync, readFileSync, rmSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { CLIENT_HEADER, HEALTH_PATH } from "@vics/shared";
import {
  bigBodies,
  bigHeaderChecks,
  type Counts,
  idleFlood,
  inParallel,
  send,
  wrongKeys,
} from "./memory/attacks.ts";
import {
  type MemorySample,
  memoryVerdict,
  type ProcessVerdict,
} from "./memory/memory-verdict.ts";
import { stopAllChildren, type Child } from "./load/children.ts";
import { sampleRss } from "./load/rss.ts";
import {
  createKey,
  loadProxyEnv,
  signedInCookie,
  startServer,
} from "./load/stack.ts";

const ROOT = resolve(import.meta.dirname, "..");
const PROBE = pathToFileURL(join(ROOT, "scripts/memory/gc-probe.ts")).href;

const { values } = parseArgs({
  options: {
    rounds: { type: "string", default: "4" },
    scale: { type: "string", default: "1" },
    "idle-seconds": { type: "string", default: "5" },
    // Connection caps lifted, as before they existed: what the idle sockets cost then.
    unguarded: { type: "boolean", default: false },
    // glibc's malloc arenas (MALLOC_ARENA_MAX): fewer arenas, less memory held between rounds.
    "malloc-arena-max": { type: "string" },
  },
});
const rounds = Number(values.rounds);
const scale = Number(values.scale);
const idleSeconds = Number(values["idle-seconds"]);
const n = (full: number) => Math.max(1, Math.round(full * scale));

const deadline = setTimeout(() => {
  console.error("Gave up after 15 minutes.");
  void stopAllChildren().then(() => process.exit(2));
}, 15 * 60_000);
deadline.unref();

const dataDir = mkdtempSync(join(tmpdir(), "vics-memory-"));
const probeDir = mkdtempSync(join(tmpdir(), "vics-memory-probe-"));
const probeEnv = {
  NODE_OPTIONS: `--expose-gc --import=${PROBE}`,
  MEMORY_PROBE_DIR: probeDir,
  LOG_LEVEL: "warn",
  ...(values["malloc-arena-max"] && {
    MALLOC_ARENA_MAX: values["malloc-arena-max"],
  }),
  ...(values.unguarded && {
    MAX_CONNECTIONS: "1000000",
    MAX_CONNECTIONS_PER_ADDRESS: "1000000",
  }),
};

function server(
  script: string,
  readyPath: string,
  env: Record<string, string>,
) {
  return startServer(script, readyPath, { ...probeEnv, ...env });
}

/** Two full collections in the process, then its memoryUsage(). */
async function measure(child: Child): Promise<MemorySample> {
  const pid = child.process.pid!;
  const file = join(probeDir, `${pid}.json`);
  rmSync(file, { force: true });
  child.process.kill("SIGUSR2");
  for (let tries = 0; !existsSync(file); tries++) {
    if (tries === 200) throw new Error(`no memory report from ${pid}`);
    await new Promise((done) => setTimeout(done, 50));
  }
  return JSON.parse(readFileSync(file, "utf8")) as MemorySample;
}

const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);
const summary = (counts: Counts) =>
  Object.entries(counts)
    .map(([status, times]) => `${status} ×${times}`)
    .join(", ");

console.log(
  `Memory after attack: ${rounds} rounds at scale ${scale}, ${idleSeconds} s idle before each measure${values.unguarded ? ", connection caps lifted" : ""}${values["malloc-arena-max"] ? `, MALLOC_ARENA_MAX=${values["malloc-arena-max"]}` : ""}`,
);
const databasePath = join(dataDir, "vics.sqlite");
const proxyDatabasePath = join(dataDir, "proxy.sqlite");
let exitCode = 1;
try {
  const service = await server("service/src/index.ts", HEALTH_PATH, {
    DATABASE_PATH: databasePath,
  });
  const proxy = await server("proxy/src/index.ts", "/", {
    UPSTREAM_URL: service.url,
    UPSTREAM_API_KEY: createKey(databasePath, "internal", "memory-proxy"),
    UPSTREAM_API_KEY_FILE: "",
    ...loadProxyEnv(proxyDatabasePath),
  });
  const signedIn = {
    [CLIENT_HEADER]: "memory-experiment",
    Cookie: await signedInCookie(`${proxy.url}/`, proxyDatabasePath),
  };
  // A caller of the service's own, so that its bodies are read, not refused for the key.
  const directKey = createKey(databasePath, "internal", "memory-direct");

  // Warm-up as ordinary use: checks through the proxy, so both have compiled their paths.
  await inParallel(n(500), 20, (i) =>
    send(proxy.url, {
      path: `/api/v1/compliance/${["AB12CDE", "MT15EXP", "UN51NSD"][i % 3]}`,
      headers: signedIn,
      from: "127.0.0.1",
    }),
  );
  await new Promise((done) => setTimeout(done, idleSeconds * 1000));
  const baseline = {
    proxy: await measure(proxy),
    service: await measure(service),
  };
  const samples: Record<"proxy" | "service", MemorySample[]> = {
    proxy: [],
    service: [],
  };
  const peaks: Record<"proxy" | "service", number[]> = {
    proxy: [],
    service: [],
  };

  for (let round = 1; round <= rounds; round++) {
    const started = Date.now();
    const rss = sampleRss(
      { proxy: proxy.process.pid, service: service.process.pid },
      250,
    );
    const proxyPort = Number(new URL(proxy.url).port);
    const servicePort = Number(new URL(service.url).port);
    const flood = await Promise.all([
      idleFlood(proxyPort, n(6000), 1500, 2000),
      idleFlood(servicePort, n(6000), 1500, 2000),
    ]);
    const headers = await bigHeaderChecks(proxy.url, n(3000), signedIn.Cookie);
    const signedOut = await bigHeaderChecks(proxy.url, n(3000));
    const guesses = await wrongKeys(service.url, n(3000));
    const proxyBodies = await bigBodies(
      proxy.url,
      "/api/v1/vehicle/bulk-insurance",
      n(200),
      4,
      signedIn,
    );
    const serviceBodies = await bigBodies(
      service.url,
      "/v1/vehicle/bulk-insurance",
      n(200),
      4,
      { "X-API-Key": directKey },
    );
    rss.stop();
    for (const name of ["proxy", "service"] as const)
      peaks[name].push(
        Math.max(...(rss.samples[name] ?? []).map(([, m]) => m)),
      );
    await new Promise((done) => setTimeout(done, idleSeconds * 1000));
    samples.proxy.push(await measure(proxy));
    samples.service.push(await measure(service));
    console.log(
      [
        `Round ${round} (${((Date.now() - started) / 1000).toFixed(0)} s):`,
        `  idle sockets: proxy ${flood[0].opened} opened, ${flood[0].closedByServer} closed by it; service ${flood[1].opened} opened, ${flood[1].closedByServer} closed by it`,
        `  15 KiB headers through the proxy: signed in ${summary(headers)}; signed out ${summary(signedOut)}`,
        `  wrong keys to the service: ${summary(guesses)}`,
        `  4 MiB bodies: proxy ${summary(proxyBodies)}; service ${summary(serviceBodies)}`,
        `  after GC: proxy heap ${mb(samples.proxy.at(-1)!.heapUsed)} MB, RSS ${mb(samples.proxy.at(-1)!.rss)} MB; service heap ${mb(samples.service.at(-1)!.heapUsed)} MB, RSS ${mb(samples.service.at(-1)!.rss)} MB`,
      ].join("\n"),
    );
  }

  const verdicts: Record<string, ProcessVerdict> = {};
  console.log("");
  for (const name of ["proxy", "service"] as const) {
    const verdict = memoryVerdict(baseline[name], samples[name]);
    verdicts[name] = verdict;
    const rows = [baseline[name], ...samples[name]].map((sample, i) =>
      [
        i === 0 ? "baseline" : `round ${i}`,
        i === 0 ? "" : `${peaks[name][i - 1]!.toFixed(1)}`,
        mb(sample.rss),
        mb(sample.heapTotal),
        mb(sample.heapUsed),
        mb(sample.external),
        mb(sample.arrayBuffers),
      ].join(" | "),
    );
    console.log(
      [
        `${name}:`,
        "| After | RSS peak in the round (MB) | RSS after GC (MB) | heap total | heap used | external | array buffers |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: |",
        ...rows.map((row) => `| ${row} |`),
        `${verdict.leak ? "LEAK" : "no leak"}: ${verdict.reasons.join("; ")}`,
        "",
      ].join("\n"),
    );
  }
  exitCode = Object.values(verdicts).some((verdict) => verdict.leak) ? 1 : 0;
} finally {
  await stopAllChildren();
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(probeDir, { recursive: true, force: true });
}
process.exit(exitCode);
