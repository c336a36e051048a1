// What the proxy's PostgreSQL store holds and writes per audit event and per watched vehicle,
// for the sizing in docs/deployment.md ("Past one cluster"); `npm run bench` takes its figures
// (`audit_pg_*`, `fleet_pg_*`), and it runs alone too.
// On a PostgreSQL of its own (the tests' server, fsync off: nothing here times a sync), it
// appends `events` signed-in checks' events through the proxy's store as shipped, BATCH at a
// time (the checks in flight together, one group commit), then saves fleets holding `vehicles`
// vehicles, and reads from PostgreSQL itself the bytes each table and its indexes hold and the
// WAL each step wrote. The Node process's CPU per event is read beside it; PostgreSQL's own CPU
// is not (it runs in other processes).
// Run: scripts/node24 node bench/store-sizes.ts [events] [vehicles]
import { startPostgres } from "@vics/server-kit/testing/postgres-server";
import { postgresMissing } from "./engines.ts";
import type { Recorder } from "./recorder.ts";
import { openPostgresProxyStore } from "../proxy/src/team/store/postgres/postgres-proxy-store.ts";
import type {
  NewAuditEvent,
  ProxyStore,
} from "../proxy/src/team/store/proxy-store.ts";

const BATCH = 16;
const FLEET_SIZE = 10_000;
const PLATES = 1_000_000;
/** Registrations in a fleet run's chunk, one audit event each. */
const BULK_SIZE = 1_000;

const plate = (n: number) =>
  `${String.fromCharCode(65 + (n % 26), 65 + (((n / 26) | 0) % 26))}${String(((n / 676) % 100) | 0).padStart(2, "0")}${String.fromCharCode(65 + (((n / 67600) | 0) % 26), 65 + ((n * 7) % 26), 65 + ((n * 13) % 26))}`;

/** A signed-in insurance check's event, as audited-forward.ts writes it. */
const checkEvent = (i: number): NewAuditEvent => ({
  at: Date.now(),
  userId: `user-${i % 10_000}`,
  userEmail: `staff${i % 10_000}@example.test`,
  action: "check.insurance",
  registrations: [plate((i * 7919) % PLATES)],
  outcome: "200",
  requestId: crypto.randomUUID(),
  correlationId: null,
  clientAddress: "10.0.0.1",
  detail: { verdict: "insured" },
});

interface Step {
  bytes: number;
  walBytes: number;
}

export async function measureStoreSizes(
  events: number,
  vehicles: number,
  bulkEvents = Math.ceil(events / 1_000),
) {
  const server = await startPostgres();
  let store: ProxyStore | undefined;
  try {
    const url = await server.createDatabase("vics_proxy");
    store = await openPostgresProxyStore({
      url,
      auditRetentionDays: 3650,
      applicationName: "store-sizes",
    });
    const sizeOf = async (tables: string[]) => {
      const { rows } = await server.query(
        // A partitioned table's own size is none: its partitions' are summed (the audit's).
        `SELECT sum(pg_total_relation_size(p.relid))::bigint AS bytes
           FROM unnest($1::regclass[]) AS t, pg_partition_tree(t) AS p`,
        "vics_proxy",
        [tables],
      );
      return Number(rows[0].bytes);
    };
    const wal = async () => {
      const { rows } = await server.query(
        "SELECT pg_current_wal_insert_lsn()::text AS lsn",
      );
      const [high, low] = String(rows[0].lsn).split("/");
      return Number.parseInt(high!, 16) * 2 ** 32 + Number.parseInt(low!, 16);
    };
    const auditTables = ["audit_events", "audit_registrations"];
    const fleetTables = ["fleets", "fleet_vehicles"];

    /** The tables' bytes and the WAL's position now. */
    const mark = async (tables: string[]): Promise<Step> => ({
      bytes: await sizeOf(tables),
      walBytes: await wal(),
    });
    const since = async (tables: string[], before: Step) => {
      const now = await mark(tables);
      return {
        now,
        step: {
          bytes: now.bytes - before.bytes,
          walBytes: now.walBytes - before.walBytes,
        },
      };
    };

    const auditBefore = await mark(auditTables);
    const cpuBefore = process.cpuUsage();
    for (let i = 0; i < events; i += BATCH) {
      const batch = [];
      for (let j = i; j < Math.min(events, i + BATCH); j++)
        batch.push(store.appendAudit(checkEvent(j)));
      await Promise.all(batch);
    }
    const cpu = process.cpuUsage(cpuBefore);
    const { now: bulkBefore, step: audit } = await since(
      auditTables,
      auditBefore,
    );

    // A fleet run's chunks: one event each, and a per-plate row for each of its registrations.
    for (let i = 0; i < bulkEvents; i++)
      await store.appendAudit({
        ...checkEvent(i),
        action: "check.bulk-insurance",
        registrations: Array.from({ length: BULK_SIZE }, (_, j) =>
          plate((i * BULK_SIZE + j) % PLATES),
        ),
      });
    const bulkPlates = bulkEvents * BULK_SIZE;
    const { step: bulk } = await since(auditTables, bulkBefore);

    const fleetsBefore = await mark(fleetTables);
    const at = Date.now();
    for (let f = 0; f * FLEET_SIZE < vehicles; f++) {
      const count = Math.min(FLEET_SIZE, vehicles - f * FLEET_SIZE);
      await store.createFleet(
        `Fleet ${f}`,
        {
          columns: ["Fleet no", "Depot"],
          vehicles: Array.from({ length: count }, (_, i) => ({
            registration: plate(f * FLEET_SIZE + i),
            cells: [String(i), `Depot ${i % 40}`],
          })),
        },
        { email: "manager@example.test", at },
        { maxFleets: 10_000, maxWatchedVehicles: vehicles },
      );
    }
    const { step: fleets } = await since(fleetTables, fleetsBefore);
    const { rows } = await server.query(
      "SELECT (SELECT count(*) FROM audit_events)::int AS events, (SELECT count(*) FROM audit_registrations)::int AS plates, (SELECT count(*) FROM fleet_vehicles)::int AS vehicles",
      "vics_proxy",
    );
    return {
      events,
      vehicles,
      stored: {
        events: rows[0].events as number,
        plates: rows[0].plates as number,
        vehicles: rows[0].vehicles as number,
      },
      auditBytesPerEvent: audit.bytes / events,
      auditWalBytesPerEvent: audit.walBytes / events,
      auditNodeCpuUsPerEvent: (cpu.user + cpu.system) / events,
      bulkBytesPerPlate: bulk.bytes / bulkPlates,
      bulkWalBytesPerPlate: bulk.walBytes / bulkPlates,
      fleetBytesPerVehicle: fleets.bytes / vehicles,
      fleetWalBytesPerVehicle: fleets.walBytes / vehicles,
    };
  } finally {
    await store?.close();
    await server.close();
  }
}

/** Each bench figure and the measurement it is. */
const FIGURES = {
  audit_pg_bytes_per_event: "auditBytesPerEvent",
  audit_pg_wal_bytes_per_event: "auditWalBytesPerEvent",
  audit_pg_node_cpu_us_per_event: "auditNodeCpuUsPerEvent",
  audit_pg_bytes_per_bulk_plate: "bulkBytesPerPlate",
  audit_pg_wal_bytes_per_bulk_plate: "bulkWalBytesPerPlate",
  fleet_pg_bytes_per_vehicle: "fleetBytesPerVehicle",
  fleet_pg_wal_bytes_per_vehicle: "fleetWalBytesPerVehicle",
} as const;
const KEYS = Object.keys(FIGURES);

/** The bench's figures: 200,000 events and 100,000 vehicles (a quarter with --quick). */
export async function storeSizeFigures(
  quick: boolean,
  recorder: Recorder,
): Promise<void> {
  const missing = postgresMissing();
  if (missing) return recorder.skip(KEYS, missing);
  await recorder.scenario(
    KEYS,
    async () => {
      const sizes = await measureStoreSizes(
        quick ? 50_000 : 200_000,
        quick ? 25_000 : 100_000,
      );
      for (const [key, field] of Object.entries(FIGURES))
        recorder.figures[key] = sizes[field];
    },
    "the proxy's PostgreSQL store: bytes and WAL per audit event and per watched vehicle",
  );
}

if (import.meta.main) {
  const events = Number(process.argv[2] ?? 200_000);
  const vehicles = Number(process.argv[3] ?? 100_000);
  const figures = await measureStoreSizes(events, vehicles);
  const rows: [string, string][] = [
    ["Audit events appended", figures.events.toLocaleString("en-GB")],
    ["Bytes on disk per event", figures.auditBytesPerEvent.toFixed(0)],
    ["WAL bytes per event", figures.auditWalBytesPerEvent.toFixed(0)],
    ["Node CPU µs per event", figures.auditNodeCpuUsPerEvent.toFixed(1)],
    [
      "Bulk events (1,000 plates each)",
      (figures.stored.events - figures.events).toLocaleString("en-GB"),
    ],
    ["Bytes on disk per bulk plate", figures.bulkBytesPerPlate.toFixed(0)],
    ["WAL bytes per bulk plate", figures.bulkWalBytesPerPlate.toFixed(0)],
    ["Watched vehicles saved", figures.vehicles.toLocaleString("en-GB")],
    ["Bytes on disk per vehicle", figures.fleetBytesPerVehicle.toFixed(0)],
    ["WAL bytes per vehicle", figures.fleetWalBytesPerVehicle.toFixed(0)],
  ];
  const width = Math.max(...rows.map(([name]) => name.length));
  for (const [name, value] of rows)
    console.log(`${name.padEnd(width)}  ${value}`);
}
