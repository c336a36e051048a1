// The watched fleets' daily sweep: 100,000 watched vehicles re-checked through the v1 bulk
// compliance route with a key of their own, by the proxy's own sweep (its engine, facts,
// timeline and alerts, in a proxy store of its own). The first sweep records what it finds; the
// second is the daily one, where little changes. And the alert evaluation alone, per vehicle.
import { join } from "node:path";
import { createHttpFleetClient } from "@vics/fleet";
import { ukDate } from "@vics/shared";
import type { Stack } from "../scripts/load/stack.ts";
import { openSqliteProxyStore } from "../proxy/src/team/store/sqlite/sqlite-proxy-store.ts";
import { alertChange } from "../proxy/src/team/watch/vehicle-alerts.ts";
import { sweepWatchedVehicles } from "../proxy/src/team/watch/sweep.ts";
import { percentile } from "./percentile.ts";
import type { Recorder } from "./recorder.ts";
import { createKey } from "./servers.ts";

export async function sweepFigures(
  context: { stack: Stack; dataDir: string; fleet: readonly string[] },
  recorder: Recorder,
): Promise<void> {
  const { figures, scenario } = recorder;
  await scenario(
    ["sweep100k_first_s", "sweep100k_s", "alert_eval_us"],
    async () => {
      const store = openSqliteProxyStore({
        path: join(context.dataDir, "proxy-watch.sqlite"),
        auditRetentionDays: 30,
      });
      try {
        await store.createFleet(
          "Bench fleet",
          {
            columns: [],
            vehicles: context.fleet.map((registration) => ({
              registration,
              cells: [],
            })),
          },
          { email: "bench@example.org", at: Date.now() },
        );
        const deps = {
          store,
          now: Date.now,
          client: createHttpFleetClient({
            baseUrl: context.stack.serviceUrl,
            headers: {
              "X-API-Key": createKey(
                join(context.dataDir, "vics.sqlite"),
                "watch",
              ),
            },
          }),
        };
        const timed = async () => {
          const started = performance.now();
          const report = await sweepWatchedVehicles(deps);
          const seconds = (performance.now() - started) / 1000;
          if (report.status !== "finished" || report.unknown > 0)
            throw new Error(
              `the sweep ended ${report.status} with ${report.unknown} vehicles unknown`,
            );
          return { seconds, report };
        };
        const first = await timed();
        const daily = await timed();
        figures.sweep100k_first_s = first.seconds;
        figures.sweep100k_s = daily.seconds;

        // The evaluation alone: each vehicle's facts against themselves, as a quiet day is.
        const states = await store.watchStates(context.fleet);
        const today = ukDate(new Date());
        const rounds: number[] = [];
        for (let round = 0; round < 5; round += 1) {
          const started = performance.now();
          for (const state of states) {
            const facts = state.facts!;
            alertChange(facts, today, facts, state.openAlerts);
          }
          rounds.push(((performance.now() - started) * 1000) / states.length);
        }
        figures.alert_eval_us = percentile(rounds, 50);
        recorder.say(
          `  first sweep ${first.seconds.toFixed(1)} s (${first.report.opened.length} alerts), daily ${daily.seconds.toFixed(1)} s (${daily.report.opened.length} new); evaluation ${figures.alert_eval_us.toFixed(2)} µs a vehicle`,
        );
      } finally {
        await store.close();
      }
    },
    "the daily sweep of 100,000 watched vehicles",
  );
}
