// The fleet-sized scenarios: 1,000-registration bulk checks direct to the service, one after
// another, and a 100,000-registration fleet run through a proxy of its own, each on a fresh key.
import { join } from "node:path";
import { paths } from "@vics/shared";
import type { Stack } from "../scripts/load/stack.ts";
import { bulkP50 } from "./bulk.ts";
import { fleetRunInNode } from "./fleet-node.ts";
import type { Recorder } from "./recorder.ts";
import { createKey, startProxy } from "./servers.ts";

export async function batchFigures(
  context: {
    stack: Stack;
    dataDir: string;
    /** 100,000 unique fleet registrations. */
    fleet: readonly string[];
    quick: boolean;
  },
  recorder: Recorder,
): Promise<void> {
  const { stack, fleet } = context;
  const { figures, scenario } = recorder;
  const databasePath = join(context.dataDir, "vics.sqlite");
  const requests = context.quick ? 20 : 50;

  for (const [key, path] of [
    ["bulk1000_p50_ms", paths.bulkInsurance()],
    ["bulk_compliance1000_p50_ms", paths.bulkCompliance()],
  ] as const)
    await scenario([key], async () => {
      const p50 = await bulkP50({
        name: key,
        url: stack.serviceUrl + path,
        key: createKey(databasePath, key),
        registrations: fleet,
        requests,
      });
      figures[key] = p50;
      recorder.say(`  p50 ${p50.toFixed(1)} ms over ${requests} requests`);
    });

  await scenario(["fleet100k_node_s", "fleet100k_node_per_s"], async () => {
    const key = createKey(databasePath, "fleet");
    const proxy = await startProxy(
      stack.serviceUrl,
      key,
      join(context.dataDir, "proxy-fleet.sqlite"),
    );
    try {
      const run = await fleetRunInNode(`${proxy.url}/`, proxy.cookie, fleet);
      figures.fleet100k_node_s = run.seconds;
      figures.fleet100k_node_per_s = run.perSecond;
      recorder.say(
        `  ${run.seconds.toFixed(1)} s, ${Math.round(run.perSecond)} registrations/s, ${JSON.stringify(run.outcomes)}`,
      );
    } finally {
      await proxy.stop();
    }
  });
}
