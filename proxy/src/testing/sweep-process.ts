// `node proxy/src/testing/sweep-process.ts`: one daily sweep as the job engine runs it
// (sweepHandler: a watch run recorded from start to end), in a process of its own, so that a
// test can SIGKILL it mid-sweep. Its store is the SQLite file PROXY_DATABASE_PATH; the service
// is UPSTREAM_URL, asked with WATCH_API_KEY, SWEEP_CHUNK registrations a request, one request at
// a time. Writes a JSON line a step, as startNode (child-processes.ts) reads them: {"msg":
// "recorded", vehicles} after each batch is committed, then {"msg": "swept", ...report} with the
// registrations of the alerts it opened.
import { createHttpFleetClient } from "@vics/fleet";
import { openSqliteProxyStore } from "../team/store/sqlite/sqlite-proxy-store.ts";
import { sweepHandler } from "../team/watch/jobs/sweep-job.ts";

const env = (name: string) => {
  const value = process.env[name];
  if (!value) throw new Error(`sweep-process: ${name} is not set`);
  return value;
};

const store = openSqliteProxyStore({
  path: env("PROXY_DATABASE_PATH"),
  auditRetentionDays: 30,
});
const recordRechecks = store.recordRechecks.bind(store);
store.recordRechecks = async (rechecks, runId) => {
  const opened = await recordRechecks(rechecks, runId);
  process.stdout.write(
    `${JSON.stringify({ msg: "recorded", vehicles: rechecks.length })}\n`,
  );
  return opened;
};

const sweep = sweepHandler({
  store,
  now: Date.now,
  client: createHttpFleetClient({
    baseUrl: env("UPSTREAM_URL"),
    headers: { "X-API-Key": env("WATCH_API_KEY") },
  }),
  tuning: { chunkSize: Number(env("SWEEP_CHUNK")), concurrency: 1 },
});
const report = await sweep({ kind: "daily" });
process.stdout.write(
  `${JSON.stringify({
    msg: "swept",
    ...report,
    opened: report.opened.map((alert) => alert.registration),
  })}\n`,
);
await store.close();
