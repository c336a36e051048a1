// PostgreSQL beside SQLite, for `npm run bench`: the same 1,000,000-vehicle fleet seeded into a
// real PostgreSQL by the service's own seeding (`scripts/db seed`'s: migrations, then COPY), a
// real service process on it (DATABASE_URL) with internal-plan keys made by the keys command
// against it, and the bench's SQLite service beside it. Interleaved rounds, the engines' order
// swapped each round: in each, per engine, single insurance checks under the bench's load (64
// connections, a fresh key) and sequential 1,000-item bulk checks (bulkP50, a fresh key). Each
// figure is the median round's, with its fastest and slowest round.
// PostgreSQL runs with shared_buffers raised to 1GB (its default, 128MB, holds a fraction of
// the vehicles' table and indexes; SQLite reads through a 1 GiB memory map) and the test
// server's other settings (fsync off: nothing measured here writes); the run prints them all.
import { join } from "node:path";
import {
  API_KEY_HEADER,
  CLIENT_HEADER,
  HEALTH_PATH,
  PLAN_LIMITS,
  paths,
} from "@vics/shared";
import {
  postgresBin,
  startPostgres,
  type PostgresServer,
} from "@vics/server-kit/testing/postgres-server";
import { startServer, type Stack } from "../scripts/load/stack.ts";
import { fleetOptions, seedDatabase } from "../service/src/store/open-store.ts";
import { bulkP50 } from "./bulk.ts";
import { loadScenario } from "./load.ts";
import type { OpenResources } from "./open-resources.ts";
import { formatNumber, RATIOS, ratioTarget } from "./report.ts";
import type { Recorder } from "./recorder.ts";
import { BENCH_FLEET_SIZE } from "./seed.ts";
import { createKeyIn } from "./servers.ts";
import { overRounds, roundOrder } from "./rounds.ts";

export const ENGINE_ROUNDS = 3;
export const POSTGRES_SHARED_BUFFERS = "1GB";
/** The settings the run prints, besides shared_buffers. */
const SHOWN_SETTINGS = [
  "server_version",
  "shared_buffers",
  "effective_cache_size",
  "work_mem",
  "max_connections",
  "fsync",
  "synchronous_commit",
  "jit",
  "random_page_cost",
];

export const ENGINE_FIGURES = [
  "postgres_seed1m_s",
  "postgres_shared_buffers_mb",
  ...(["sqlite", "postgres"] as const).flatMap((engine) => [
    `${engine}_lookup_p50_ms`,
    `${engine}_lookup_fastest_round_ms`,
    `${engine}_lookup_slowest_round_ms`,
    `${engine}_lookup_rps`,
    `${engine}_bulk1000_p50_ms`,
    `${engine}_bulk1000_fastest_round_ms`,
    `${engine}_bulk1000_slowest_round_ms`,
  ]),
];

type EngineName = "sqlite" | "postgres";

interface Engine {
  name: EngineName;
  serviceUrl: string;
  pid: number | undefined;
  /** A fresh internal-plan key in this engine's database. */
  key(name: string): string;
}

/** Why this machine cannot start PostgreSQL, or undefined when it can. */
export function postgresMissing(): string | undefined {
  try {
    postgresBin();
    return undefined;
  } catch {
    return "PostgreSQL is not installed";
  }
}

/** A test PostgreSQL with shared_buffers raised, and its settings as SHOW gives them. */
async function benchPostgres(): Promise<{
  server: PostgresServer;
  settings: Record<string, string>;
  sharedBuffersMb: number;
}> {
  const server = await startPostgres({
    settings: { shared_buffers: POSTGRES_SHARED_BUFFERS },
  });
  try {
    const { rows } = await server.query(
      "SELECT name, current_setting(name) AS value FROM unnest($1::text[]) AS name",
      undefined,
      [SHOWN_SETTINGS],
    );
    const settings = Object.fromEntries(
      rows.map((row: { name: string; value: string }) => [row.name, row.value]),
    );
    const bytes = await server.query(
      "SELECT pg_size_bytes(current_setting('shared_buffers')) AS bytes",
    );
    const sharedBuffersMb =
      Number((bytes.rows[0] as { bytes: string }).bytes) / 2 ** 20;
    return { server, settings, sharedBuffersMb };
  } catch (error) {
    await server.close();
    throw error;
  }
}

export async function engineFigures(
  context: {
    /** The bench's stack: its service is the SQLite side. */
    stack: Stack;
    /** The bench's folder: its SQLite database is vics.sqlite there. */
    dataDir: string;
    /** 100,000 registrations of the fleet, for the bulk checks. */
    fleet: readonly string[];
    /** 10,000 of them, for the single checks. */
    sample: readonly string[];
    quick: boolean;
    resources: OpenResources;
  },
  recorder: Recorder,
): Promise<void> {
  const { figures, say } = recorder;
  const { stack, fleet, sample } = context;
  const plan = {
    ...(context.quick
      ? { warmUpSeconds: 1, seconds: 3 }
      : { warmUpSeconds: 2, seconds: 10 }),
    // A fresh key allows 100,000 requests a minute: stay under it.
    maxRequests: PLAN_LIMITS.internal * 0.9,
  };
  const bulkRequests = context.quick ? 20 : 50;
  const pick = () => sample[Math.floor(Math.random() * sample.length)] ?? "";
  const missing = postgresMissing();
  if (missing) return recorder.skip(ENGINE_FIGURES, missing);

  await recorder.scenario(
    ENGINE_FIGURES,
    async () => {
      say(
        `  starting PostgreSQL (shared_buffers=${POSTGRES_SHARED_BUFFERS}) and seeding ${BENCH_FLEET_SIZE.toLocaleString("en-GB")} vehicles with the service's seeding...`,
      );
      const postgres = await benchPostgres();
      const closePostgres = context.resources.add(() =>
        postgres.server.close(),
      );
      try {
        say(
          `  PostgreSQL settings: ${Object.entries(postgres.settings)
            .map(([name, value]) => `${name}=${value}`)
            .join(", ")}`,
        );
        figures.postgres_shared_buffers_mb = postgres.sharedBuffersMb;
        const databaseUrl =
          await postgres.server.createDatabase("vics_service");
        const seedStarted = performance.now();
        const outcome = await seedDatabase(
          { url: databaseUrl, path: "", applicationName: "vics-bench-seed" },
          fleetOptions(new Date(), BENCH_FLEET_SIZE),
        );
        if (outcome !== "seeded")
          throw new Error(`PostgreSQL's seeding found ${outcome}`);
        figures.postgres_seed1m_s = (performance.now() - seedStarted) / 1000;
        say(`  seeded in ${figures.postgres_seed1m_s.toFixed(1)} s`);
        // A database in service is past its first load: without this, autovacuum's first pass
        // over the million new rows and the checkpoint of the seeding's gigabyte of dirty pages
        // run during the rounds, sharing the two cores with what is measured.
        await postgres.server.query(
          "VACUUM (ANALYZE) vehicles",
          "vics_service",
        );
        await postgres.server.query("CHECKPOINT", "vics_service");

        // The service's defaults otherwise (DATABASE_POOL_SIZE 10); no seeding at its start.
        const service = await startServer("service/src/index.ts", HEALTH_PATH, {
          DATABASE_URL: databaseUrl,
        });
        try {
          const engines: Engine[] = [
            {
              name: "sqlite",
              serviceUrl: stack.serviceUrl,
              pid: stack.service.pid,
              key: (name) =>
                createKeyIn(
                  {
                    DATABASE_PATH: join(context.dataDir, "vics.sqlite"),
                    DATABASE_URL: "",
                  },
                  name,
                ),
            },
            {
              name: "postgres",
              serviceUrl: service.url,
              pid: service.process.pid,
              key: (name) => createKeyIn({ DATABASE_URL: databaseUrl }, name),
            },
          ];
          await measureRounds(engines);
        } finally {
          await service.stop();
        }
      } finally {
        await closePostgres();
      }
    },
    "PostgreSQL beside SQLite: single and bulk 1,000 insurance checks",
  );

  async function measureRounds(engines: Engine[]): Promise<void> {
    // Every key made before the first round, so the keys command's start-ups fall outside it.
    const stamp = Date.now();
    const keys = engines.map((engine) =>
      Array.from({ length: ENGINE_ROUNDS }, (_, round) => ({
        lookup: engine.key(`bench-${engine.name}-lookup-${round}-${stamp}`),
        bulk: engine.key(`bench-${engine.name}-bulk-${round}-${stamp}`),
      })),
    );
    const rounds: Record<
      EngineName,
      { lookupMs: number[]; rps: number[]; bulkMs: number[] }
    > = {
      sqlite: { lookupMs: [], rps: [], bulkMs: [] },
      postgres: { lookupMs: [], rps: [], bulkMs: [] },
    };
    for (let round = 0; round < ENGINE_ROUNDS; round++)
      for (const engine of roundOrder(engines, round)) {
        const key = keys[engines.indexOf(engine)]![round]!;
        const name = `${engine.name} round ${round + 1}`;
        const lookup = await loadScenario(
          `${name} insurance`,
          {
            url: engine.serviceUrl,
            headers: { [CLIENT_HEADER]: "bench", [API_KEY_HEADER]: key.lookup },
            path: () => paths.insurance(pick()),
          },
          plan,
          { service: engine.pid },
        );
        const bulkMs = await bulkP50({
          name: `${name} bulk`,
          url: engine.serviceUrl + paths.bulkInsurance(),
          key: key.bulk,
          registrations: fleet,
          requests: bulkRequests,
        });
        const measured = rounds[engine.name];
        measured.lookupMs.push(lookup.p50Ms);
        measured.rps.push(lookup.rps);
        measured.bulkMs.push(bulkMs);
        say(
          `  ${name}: single p50 ${lookup.p50Ms} ms (${Math.round(lookup.rps)} req/s, ${Math.round(lookup.cpuUsPerRequest.service ?? NaN)} µs CPU/req), bulk 1,000 p50 ${bulkMs.toFixed(1)} ms`,
        );
      }
    for (const engine of ["sqlite", "postgres"] as const) {
      const lookup = overRounds(rounds[engine].lookupMs);
      const bulk = overRounds(rounds[engine].bulkMs);
      figures[`${engine}_lookup_p50_ms`] = lookup.median;
      figures[`${engine}_lookup_fastest_round_ms`] = lookup.fastest;
      figures[`${engine}_lookup_slowest_round_ms`] = lookup.slowest;
      figures[`${engine}_lookup_rps`] = overRounds(rounds[engine].rps).median;
      figures[`${engine}_bulk1000_p50_ms`] = bulk.median;
      figures[`${engine}_bulk1000_fastest_round_ms`] = bulk.fastest;
      figures[`${engine}_bulk1000_slowest_round_ms`] = bulk.slowest;
      say(
        `  ${engine}: single p50 ${lookup.median} ms (rounds ${lookup.fastest}-${lookup.slowest}), bulk 1,000 p50 ${bulk.median.toFixed(1)} ms (rounds ${bulk.fastest.toFixed(1)}-${bulk.slowest.toFixed(1)})`,
      );
    }
    const ratio =
      (figures.postgres_bulk1000_p50_ms ?? NaN) /
      (figures.sqlite_bulk1000_p50_ms ?? NaN);
    const target = RATIOS.find(
      (spec) => spec.key === "postgres_sqlite_bulk1000_ratio",
    );
    const eachRound = rounds.postgres.bulkMs
      .map((ms, round) => formatNumber(ms / rounds.sqlite.bulkMs[round]!, 2))
      .join(", ");
    say(
      `  bulk 1,000 PostgreSQL / SQLite: ${formatNumber(ratio, 2)} (target ${target ? ratioTarget(target) : "none"}; each round's: ${eachRound}; shared_buffers=${POSTGRES_SHARED_BUFFERS})`,
    );
  }
}
