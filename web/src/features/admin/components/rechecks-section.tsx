// On the data page: the watched fleets' daily re-checks. When they run (UK time, which the
// admin sets), whether they are on, the vehicles without an answer for over a day, and the
// latest sweeps.
import { useQuery } from "@tanstack/react-query";
import { isApiError, type WatchAdminSchema } from "@vics/shared";
import type { z } from "zod";
import { LoadingMessage } from "../../../components/loading-message.tsx";
import { StatusIcon } from "../../../components/status-icon.tsx";
import { formatDateTime } from "../../../lib/dates.ts";
import {
  useSetDailyTimeMutation,
  watchAdminQueryOptions,
} from "../api/watch-api.ts";
import { count } from "../../../lib/count.ts";
import { TimeOfDayForm } from "./time-of-day-form.tsx";

type WatchAdmin = z.infer<typeof WatchAdminSchema>;

const TIME_ID = "rechecks-daily-time";

function DailyTimeForm({ current }: { current: string }) {
  const save = useSetDailyTimeMutation();
  return (
    <TimeOfDayForm
      id={TIME_ID}
      label="Daily re-check time"
      hint="UK time, 24-hour, such as 06:00. It stays at that time in London across the clock change."
      current={current}
      save={save}
      savedWords={({ dailyTime }) =>
        `The daily re-check now runs at ${dailyTime}, UK time.`
      }
      problemWords={(error) =>
        isApiError(error)
          ? error.detail
          : "VICS could not save the time. Try again."
      }
    />
  );
}

const KIND_WORDS: Record<WatchAdmin["runs"][number]["kind"], string> = {
  daily: "Daily",
  "on demand": "Asked for",
  refresh: "Refresh ahead of the sweep",
};

function Sweeps({ runs }: { runs: WatchAdmin["runs"] }) {
  if (runs.length === 0) return <p>No sweep has run yet.</p>;
  return (
    <table className="data-table">
      <caption className="visually-hidden">The latest sweeps</caption>
      <thead>
        <tr>
          <th scope="col">Started</th>
          <th scope="col">Kind</th>
          <th scope="col">Outcome</th>
          <th scope="col">Vehicles</th>
          <th scope="col">Without an answer</th>
          <th scope="col">New alerts</th>
        </tr>
      </thead>
      <tbody>
        {runs.map((run) => (
          <tr key={run.startedAt + run.kind}>
            <td>{formatDateTime(run.startedAt)}</td>
            <td>{KIND_WORDS[run.kind]}</td>
            <td>{run.outcome ?? "Running"}</td>
            <td>{count(run.vehicles)}</td>
            <td>{count(run.unknown)}</td>
            <td>{count(run.alerts)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function RechecksSection() {
  const watch = useQuery(watchAdminQueryOptions());
  return (
    <section aria-labelledby="rechecks-heading">
      <h2 id="rechecks-heading" className="heading-m">
        Watched fleets’ re-checks
      </h2>
      {watch.isPending ? (
        <LoadingMessage>Loading the re-checks…</LoadingMessage>
      ) : watch.isError ? (
        <p role="alert">
          {isApiError(watch.error)
            ? watch.error.detail
            : "The re-checks cannot be shown."}
        </p>
      ) : (
        <>
          {!watch.data.reChecksOn && (
            <p className="inset-warning">
              <StatusIcon status="warning" />
              {watch.data.reChecksOff ??
                "Re-checks are off: the proxy has no key of their own. Fleets are saved but not re-checked until an operator sets WATCH_API_KEY_FILE."}
            </p>
          )}
          {watch.data.unknownForADay > 0 && (
            <p className="inset-warning">
              <StatusIcon status="warning" />
              {count(watch.data.unknownForADay)} watched{" "}
              {watch.data.unknownForADay === 1
                ? "vehicle has"
                : "vehicles have"}{" "}
              had no answer from the vehicle service for over a day. Their
              fleets show them as unknown.
            </p>
          )}
          <DailyTimeForm current={watch.data.dailyTime} />
          <h3 className="heading-s">Latest sweeps</h3>
          <Sweeps runs={watch.data.runs} />
        </>
      )}
    </section>
  );
}
