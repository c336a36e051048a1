// The fault drills of the scale-out (docs/deployment.md): the cluster of `npm run cluster`, its
// real processes, under load, while replicas are killed and restarted and PostgreSQL and Redis
// go away and come back. Each drill counts every answer: nothing may hang, nothing may fail
// that the design says cannot, and nothing answered may be missing from the audit log.
// `npm run drills` runs this file with vitest's verbose reporter, which prints each drill as it
// ends; the drills say on stderr what they are doing meanwhile, from the cluster's start on.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  API_KEY_HEADER,
  CLIENT_HEADER,
  FLEET_MAX_BODY_BYTES,
  FLEET_MAX_VEHICLES,
  FLEET_PATHS,
  ProblemSchema,
  WATCH_PATHS,
  isValidRegistration,
  paths,
} from "@vics/shared";
import {
  clusterUsers,
  drillClient,
  signedInUser,
  startLoad,
  tally,
  type Answer,
  type DrillClient,
} from "./drill-client.ts";
import { startCluster, type Cluster } from "./start-cluster.ts";
import { fleetRunInNode } from "../../bench/fleet-node.ts";
import { DEFAULT_FLEET_SIZE } from "../../service/src/seed/fleet.ts";

const dataDir = mkdtempSync(join(tmpdir(), "vics-cluster-"));
const began = Date.now();
/** One line of progress, at once: `drills  42 s  killing service-40123 with kill -9`. */
const say = (message: string) =>
  process.stderr.write(
    `drills ${String(Math.round((Date.now() - began) / 1000)).padStart(3)} s  ${message}\n`,
  );
/** A load's answers in a few words: `1,234 answers (200: 1,200, 503: 34)`. */
const answered = (answers: readonly Answer[]) =>
  `${answers.length.toLocaleString("en-GB")} answers (${Object.entries(
    tally(answers),
  )
    .map(([status, count]) => `${status}: ${count.toLocaleString("en-GB")}`)
    .join(", ")})`;
let cluster: Cluster;
let client: DrillClient;
let registrations: string[];
/**
 * Signed in once for all the drills: each `scripts/users create` is a cold start of a command
 * (about 4 s on a busy machine), and no drill needs a user of its own. The staff user's limit is
 * the one the limit drill counts; the admin's and the fleet user's are far above what the load
 * drills and the fleet run spend.
 */
let users: Record<"admin" | "fleet" | "staff", { cookie: string }>;

beforeAll(async () => {
  say(
    "starting the cluster: PostgreSQL, Redis, nginx, 3 service and 2 proxy replicas (the services seed PostgreSQL first)",
  );
  cluster = await startCluster({
    dataDir,
    httpsPort: 0,
    quiet: true,
    say: (message) => say(`cluster: ${message}`),
  });
  say(`the cluster answers at ${cluster.url}; logs in ${cluster.logsDir}`);
  client = drillClient(cluster);
  const { rows } = await cluster.postgres.query(
    "SELECT registration FROM vehicles ORDER BY random() LIMIT 200",
    "vics_service",
  );
  registrations = rows.map((row: { registration: string }) => row.registration);
  say(
    "signing in an admin, a fleet user and a staff user (scripts/users create)",
  );
  const [admin, fleet, staff] = await Promise.all(
    (["admin", "fleet", "staff"] as const).map((role) =>
      signedInUser(cluster, client, role),
    ),
  );
  users = { admin: admin!, fleet: fleet!, staff: staff! };
}, 300_000);

afterAll(async () => {
  say("stopping the cluster");
  await client?.close();
  await cluster?.close();
  rmSync(dataDir, { recursive: true, force: true });
}, 120_000);

/** The request ids of the answered checks missing from the proxies' audit log. */
async function missingFromAudit(answers: readonly Answer[]): Promise<string[]> {
  const answered = answers
    .filter((answer) => answer.status === 200 && answer.requestId)
    .map((answer) => answer.requestId!);
  const { rows } = await cluster.postgres.query(
    "SELECT request_id FROM audit_events WHERE request_id = ANY($1::text[])",
    "vics_proxy",
    [answered],
  );
  const found = new Set(
    rows.map((row: { request_id: string }) => row.request_id),
  );
  return answered.filter((id) => !found.has(id));
}

describe("the cluster", () => {
  it("three service replicas starting together on an empty PostgreSQL migrate once and seed once", async () => {
    const { rows } = await cluster.postgres.query(
      "SELECT count(*) AS n FROM vehicles",
      "vics_service",
    );
    const { rows: meta } = await cluster.postgres.query(
      "SELECT value FROM meta WHERE key = 'vehicle_count'",
      "vics_service",
    );
    expect(Number(rows[0].n)).toBe(Number(meta[0].value));
    // One migration and one seeding in all the replicas' logs; the others found them done.
    for (const message of ["database migrated", "database seeded"]) {
      const events = await Promise.all(
        cluster.services.map((replica) => replica.logEvents(message)),
      );
      expect(events.flat(), message).toHaveLength(1);
    }
  }, 30_000);

  // Each drill that runs an operator's command (scripts/keys, scripts/users) gives it a minute:
  // a cold start (bash, the Node check, Node loading the store's code, a PostgreSQL connection)
  // took over vitest's default 5 s while the cluster was busy.
  it("25 concurrent trial-key requests over the three service replicas get exactly 10 answers other than 429", async () => {
    say("scripts/keys create --plan trial, then 25 checks at once");
    const key = (await import("node:child_process"))
      .execFileSync(
        join(import.meta.dirname, "../keys"),
        ["create", "--plan", "trial", "--name", `drill-trial-${Date.now()}`],
        {
          env: { PATH: process.env.PATH, ...cluster.serviceEnv },
          encoding: "utf8",
        },
      )
      .trim()
      .split("\n")
      .at(-1)!;
    const statuses = await Promise.all(
      Array.from({ length: 25 }, async (_, index) => {
        const response = await fetch(
          cluster.serviceUrl + paths.insurance(registrations[index]!),
          { headers: { [API_KEY_HEADER]: key } },
        );
        await response.arrayBuffer();
        return response.status;
      }),
    );
    expect(statuses.filter((status) => status !== 429)).toHaveLength(10);
  }, 60_000);

  it("a user's limit holds across the two proxies", async () => {
    say("a staff user's 130 checks at once, over both proxies");
    const { staff } = users;
    // The staff role's limit is 120 look-ups a minute; 130 checks at once, over both proxies.
    const statuses = await Promise.all(
      Array.from({ length: 130 }, async (_, index) => {
        const response = await client.fetch(
          `/api${paths.insurance(registrations[index % registrations.length]!)}`,
          { cookie: staff.cookie },
        );
        await response.arrayBuffer();
        return response.status;
      }),
    );
    expect(statuses.filter((status) => status === 200)).toHaveLength(120);
    expect(statuses.filter((status) => status === 429)).toHaveLength(10);
  }, 30_000);

  it("both proxies run the re-checks, on pg-boss as their lesser role, in the schema its owner made", async () => {
    say("asking both proxies whether their re-checks run");
    const { admin } = users;
    // Over nginx, which takes turns between the two proxies: each says so of its own jobs.
    const everyAnswerOn = async () => {
      const answers = await Promise.all(
        Array.from({ length: 6 }, async () => {
          const response = await client.fetch(WATCH_PATHS.admin, {
            cookie: admin.cookie,
          });
          return ((await response.json()) as { reChecksOn: boolean })
            .reChecksOn;
        }),
      );
      return answers.every(Boolean);
    };
    await expect
      .poll(everyAnswerOn, { timeout: 20_000, interval: 500 })
      .toBe(true);
    const { rows } = await cluster.postgres.query(
      "SELECT pg_get_userbyid(nspowner) AS owner FROM pg_namespace WHERE nspname = 'vics_jobs'",
      "vics_proxy",
    );
    expect(rows).toEqual([{ owner: "vics_proxy_owner" }]);
  }, 60_000);

  it("a service replica killed with kill -9 under load: every GET is answered, and every answer is in the audit log", async () => {
    const { cookie } = users.admin;
    const load = startLoad(client, { cookie, registrations, concurrency: 8 });
    await sleep(2_000);
    const victim = cluster.services[1]!;
    const startsBefore = victim.starts;
    say(`single checks at 8 at a time; killing ${victim.name} with kill -9`);
    victim.kill("SIGKILL");
    await sleep(5_000);
    const answers = await load.stop();
    say(`${answered(answers)}; reading the audit log`);
    expect(tally(answers)).toEqual({ 200: answers.length });
    expect(answers.length).toBeGreaterThan(50);
    expect(await missingFromAudit(answers)).toEqual([]);
    // Started again by the supervisor, as systemd's Restart=on-failure would.
    await victim.waitReady();
    expect(victim.starts).toBe(startsBefore + 1);
  }, 60_000);

  it("a fleet run of the cluster's whole fleet, a service replica killed with kill -9 during it, finishes with every row answered", async () => {
    const { rows } = await cluster.postgres.query(
      "SELECT registration FROM vehicles ORDER BY random()",
      "vics_service",
    );
    const fleet = rows.map((row: { registration: string }) => row.registration);
    // The synthetic fleet and the reference vehicles beside it.
    expect(fleet.length).toBeGreaterThanOrEqual(DEFAULT_FLEET_SIZE);
    const { cookie } = users.fleet;
    const victim = cluster.services[2]!;
    const startsBefore = victim.starts;
    let killedAt = 0;
    // Every bulk answer the run gets, through the fetch it is given. 0: no answer.
    const statuses: number[] = [];
    // Once the run's first bulk answer is in, the victim is frozen (SIGSTOP), and killed once
    // a request waits unread in its socket: nginx has sent it a bulk check of the run, which
    // then fails, rather than the kill falling between two. Timing the kill by its CPU or its
    // in-flight count missed about one run in five: an answer already written still counts in
    // flight. A fixed 1.5 s missed too once the cluster was warm from the drills before: the
    // run sends its chunks in a few seconds, then waits for the user's limit to reset (50,000
    // look-ups a minute), and the freeze fell in that wait, with no request to hold.
    const kill = (async () => {
      const started = Date.now();
      while (statuses.length === 0 && Date.now() - started < 30_000)
        await sleep(10);
      victim.kill("SIGSTOP");
      const deadline = Date.now() + 20_000;
      while (Date.now() < deadline && !requestWaits(victim.port))
        await sleep(20);
      if (!requestWaits(victim.port))
        say(`no request reached ${victim.name} in 20 s; killing it anyway`);
      killedAt = Date.now();
      say(`killing ${victim.name} with kill -9 during the run`);
      victim.kill("SIGKILL");
    })();
    const counting: typeof fetch = async (input, init) => {
      try {
        const response = await fetch(input, init);
        statuses.push(response.status);
        return response;
      } catch (error) {
        statuses.push(0);
        throw error;
      }
    };
    let run: Awaited<ReturnType<typeof fleetRunInNode>>;
    let endedAt: number;
    say(
      `a fleet run of all ${fleet.length.toLocaleString("en-GB")} vehicles, as a fleet user`,
    );
    try {
      // Throws unless the run finished with an insured or not-insured answer for every row.
      run = await fleetRunInNode(cluster.url, cookie, fleet, counting);
      endedAt = Date.now();
    } finally {
      await kill;
    }
    say(
      `the run finished in ${run.seconds.toFixed(1)} s, after ${statuses.length} bulk answers`,
    );
    expect(endedAt).toBeGreaterThan(killedAt); // the kill fell inside the run
    // A bulk check is a POST, which nginx never sends twice: the one the victim held failed,
    // and the run's own retries answered its rows.
    expect(statuses.filter((status) => status !== 200).length).toBeGreaterThan(
      0,
    );
    expect(
      (run.outcomes.insured ?? 0) + (run.outcomes["not-insured"] ?? 0),
    ).toBe(fleet.length);
    await victim.waitReady();
    expect(victim.starts).toBe(startsBefore + 1);
  }, 240_000);

  it("a rolling restart of every replica under load fails no request", async () => {
    const { cookie } = users.admin;
    const load = startLoad(client, { cookie, registrations, concurrency: 8 });
    await sleep(1_000);
    for (const replica of [...cluster.services, ...cluster.proxies]) {
      say(`under load: draining and restarting ${replica.name}`);
      await cluster.restartDrained(replica);
    }
    const answers = await load.stop();
    say(`${answered(answers)}; reading the audit log`);
    expect(tally(answers)).toEqual({ 200: answers.length });
    expect(await missingFromAudit(answers)).toEqual([]);
  }, 180_000);

  it("Redis stopped for 10 s under load: 503s with Retry-After, never a hang or an unlimited answer, then full service", async () => {
    const { cookie } = users.admin;
    const load = startLoad(client, { cookie, registrations, concurrency: 8 });
    await sleep(1_000);
    say("under load: Redis stopped for 10 s");
    await cluster.redis.stop();
    const downAt = Date.now();
    await sleep(10_000);
    await cluster.redis.start();
    const upAt = Date.now();
    say("Redis started again; 8 s more of load");
    await sleep(8_000);
    const answers = await load.stop();
    say(answered(answers));
    const counts = tally(answers);
    expect(Object.keys(counts).sort()).toEqual(["200", "503"]);
    // While Redis was down (after the requests already in flight), nothing was let through.
    const whileDown = answers.filter(
      (answer) => answer.at > downAt + 2_500 && answer.at < upAt,
    );
    expect(whileDown.length).toBeGreaterThan(0);
    expect(whileDown.every((answer) => answer.status === 503)).toBe(true);
    expect(
      answers
        .filter((a) => a.status === 503)
        .every((a) => a.retryAfter !== null),
    ).toBe(true);
    // Full service within 6 s of its return: the replicas reconnect within about 2 s, then nginx
    // tries the proxies it took out again after fail_timeout (2 s); a service's 503 takes no
    // service replica out (deploy/nginx/vics.conf).
    const after = answers.filter((answer) => answer.at > upAt + 6_000);
    expect(after.length).toBeGreaterThan(0);
    expect(tally(after)).toEqual({ 200: after.length });
  }, 60_000);

  it("PostgreSQL restarted under load: 503s while it is down, then recovery, with no process restarted", async () => {
    const { cookie } = users.admin;
    const starts = [...cluster.services, ...cluster.proxies].map(
      (r) => r.starts,
    );
    const load = startLoad(client, { cookie, registrations, concurrency: 8 });
    await sleep(1_000);
    say("under load: PostgreSQL stopped for 5 s");
    await cluster.postgres.stop();
    await sleep(5_000);
    await cluster.postgres.start();
    say("PostgreSQL started again; 6 s more of load");
    await sleep(6_000);
    const answers = await load.stop();
    say(`${answered(answers)}; reading the audit log`);
    const counts = tally(answers);
    expect(Object.keys(counts).sort()).toEqual(["200", "503"]);
    expect(counts[503]).toBeGreaterThan(0);
    const last = answers.filter((answer) => answer.at > Date.now() - 2_000);
    expect(tally(last)).toEqual({ 200: last.length });
    expect(
      [...cluster.services, ...cluster.proxies].map((r) => r.starts),
    ).toEqual(starts);
    expect(await missingFromAudit(answers)).toEqual([]);
  }, 60_000);

  it("a saved fleet of the most vehicles a list holds goes through nginx to the app; a list over the app's limit gets the app's 413, one over nginx's gets nginx's as the same problem document", async () => {
    const { cookie } = users.fleet;
    // Not through the drill client: a save of this size may take longer than its HANG_MS.
    const post = async (body: string | Buffer) => {
      const response = await fetch(new URL(FLEET_PATHS.fleets, cluster.url), {
        method: "POST",
        headers: {
          "Content-Type": "application/json",
          [CLIENT_HEADER]: "drill",
          Cookie: cookie,
        },
        body,
      });
      return { status: response.status, json: await response.json() };
    };
    const registrations: string[] = [];
    for (let n = 0; registrations.length < FLEET_MAX_VEHICLES; n++) {
      const letters = [n / 100, n / 2600, n / 67600].map((x) =>
        String.fromCharCode(65 + (Math.floor(x) % 26)),
      );
      const candidate = `AB${String(n % 100).padStart(2, "0")}${letters.join("")}`;
      if (isValidRegistration(candidate)) registrations.push(candidate);
    }
    const list = JSON.stringify({
      name: `Drill fleet ${Date.now()}`,
      columns: ["Driver", "Depot"],
      vehicles: registrations.map((registration, index) => ({
        registration,
        cells: [
          `Driver number ${index} of the drill fleet, on the night rota`,
          `Depot ${index % 40}, north yard`,
        ],
      })),
    });
    // Well over nginx's old 1 MB, within the app's 24 MB.
    expect(Buffer.byteLength(list)).toBeGreaterThan(8 * 1024 * 1024);
    expect(Buffer.byteLength(list)).toBeLessThan(FLEET_MAX_BODY_BYTES);
    say(
      `saving a fleet of ${FLEET_MAX_VEHICLES.toLocaleString("en-GB")} vehicles (${(Buffer.byteLength(list) / 1024 / 1024).toFixed(1)} MB) through nginx`,
    );
    const saved = await post(list);
    expect(saved).toMatchObject({
      status: 201,
      json: { vehicleCount: FLEET_MAX_VEHICLES },
    });

    // Just over the app's limit: past nginx (25 MB), refused by the proxy in its own words.
    say("sending lists over the app's limit and over nginx's");
    const overApp = await post(Buffer.alloc(FLEET_MAX_BODY_BYTES + 1024, " "));
    expect(overApp.status).toBe(413);
    expect(ProblemSchema.parse(overApp.json).detail).toContain(
      "The list is too large",
    );
    // Over nginx's limit: nginx's 413, as the same problem document.
    const overNginx = await post(Buffer.alloc(26 * 1024 * 1024, " "));
    expect(overNginx.status).toBe(413);
    expect(ProblemSchema.parse(overNginx.json)).toMatchObject({
      code: "PAYLOAD_TOO_LARGE",
      detail: expect.stringContaining("larger than VICS takes"),
    });
  }, 180_000);

  it("the users CLI works against the cluster's PostgreSQL store", async () => {
    say("scripts/users list");
    const started = Date.now();
    expect(await clusterUsers(cluster, "list")).toContain("admin@localhost");
    say(
      `scripts/users list answered in ${((Date.now() - started) / 1000).toFixed(1)} s`,
    );
  }, 60_000);
});

/**
 * Whether an established connection to the loopback port holds bytes its server has not read
 * yet (the listening socket's own queue counts connections, not bytes: it is left out).
 */
function requestWaits(port: number): boolean {
  return readFileSync("/proc/net/tcp", "utf8")
    .split("\n")
    .slice(1)
    .some((line) => {
      // sl local_address rem_address st tx_queue:rx_queue ...
      const [, local, , state, queues] = line.trim().split(/\s+/);
      if (!local || !queues) return false;
      return (
        state === "01" && // ESTABLISHED
        parseInt(local.split(":")[1]!, 16) === port &&
        parseInt(queues.split(":")[1]!, 16) > 0
      );
    });
}
