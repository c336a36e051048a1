// Turns a batch of re-check results into what the store keeps: the facts, the timeline, the
// alerts opened and closed. A result not answered marks its vehicle unknown and changes
// nothing else. One transaction per batch: a sweep killed midway leaves whole batches, and the
// next run starts from what they wrote, so nothing is alerted twice. A vehicle's first answered
// check is its baseline (decision 054): its alerts are open, but summed up, not notified.
import type { VehicleResult } from "@vics/fleet";
import { ukDate } from "@vics/shared";
import type { Recheck, StoredAlert, WatchStore } from "../store/watch-store.ts";
import { alertChange } from "./vehicle-alerts.ts";
import { vehicleFacts } from "./vehicle-facts.ts";
import { timelineEntries } from "./vehicle-timeline.ts";

/** What a batch left behind: the alerts it opened, and how many vehicles stay unknown. */
export interface RecordedBatch {
  opened: StoredAlert[];
  unknown: number;
}

export async function recordResults(
  store: WatchStore,
  results: readonly VehicleResult[],
  at: number,
  /** The sweep's watch run: its alerts are grouped by it, its first checks summed up. */
  runId?: number,
): Promise<RecordedBatch> {
  const today = ukDate(new Date(at));
  const states = await store.watchStates(results.map((r) => r.registration));
  const rechecks = results.map((result, index): Recheck => {
    const { registration } = result;
    const facts = vehicleFacts(result, today);
    if (!facts) return { registration, at, unknown: true };
    const state = states[index]!;
    const previous = state.facts;
    const { opened, closed } = alertChange(
      facts,
      today,
      previous,
      state.openAlerts,
    );
    return {
      registration,
      at,
      // No facts before: the vehicle's baseline, summed up per fleet, not alerted one by one.
      ...(previous === undefined && { baseline: true }),
      facts,
      timeline: timelineEntries(previous, facts),
      opened,
      closed,
    };
  });
  return {
    opened: await store.recordRechecks(rechecks, runId),
    unknown: rechecks.filter((recheck) => "unknown" in recheck).length,
  };
}
