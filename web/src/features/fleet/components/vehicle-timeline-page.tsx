// "/fleets/vehicles/:registration": everything VICS's re-checks have seen of a watched vehicle:
// its alerts, open and closed, and every change in its insurance, MOT, tax and fines, with dates.
import { useQuery } from "@tanstack/react-query";
import { Link, useParams } from "react-router";
import { formatRegistration } from "@vics/shared";
import { DocumentTitle } from "../../../components/document-title.tsx";
import { ErrorPanel } from "../../../components/error-panel.tsx";
import { LoadingMessage } from "../../../components/loading-message.tsx";
import { formatDateTime } from "../../../lib/dates.ts";
import { vehicleHistoryQueryOptions } from "../api/saved-fleets-api.ts";
import { alertWords } from "../lib/alert-words.ts";
import { fleetPaths } from "../lib/fleet-paths.ts";
import { AREA_NAMES, areaWords } from "../lib/timeline-words.ts";
import "../saved-fleets.css";

export function VehicleTimelinePage() {
  const { registration = "" } = useParams();
  const history = useQuery(vehicleHistoryQueryOptions(registration));
  const plate = formatRegistration(registration);
  if (history.isPending)
    return <LoadingMessage>{`Loading ${plate}’s history…`}</LoadingMessage>;
  if (history.isError)
    return (
      <ErrorPanel
        error={history.error}
        onRetry={() => void history.refetch()}
        retrying={history.isFetching}
      />
    );
  const { alerts, timeline } = history.data;
  return (
    <div>
      <DocumentTitle title={`${plate} – Fleets`} />
      <p className="back-link">
        <Link to={fleetPaths.savedFleets()}>Fleets</Link>
      </p>
      <h1 className="heading-l">
        <span className="heading-caption">Watched vehicle</span> {plate}
      </h1>
      <h2 className="heading-m">Alerts</h2>
      {alerts.length === 0 ? (
        <p>No alerts.</p>
      ) : (
        <ul className="saved-fleets__list">
          {alerts.map((alert) => (
            <li key={alert.id}>
              {alertWords(alert)}: raised {formatDateTime(alert.openedAt)}
              {alert.closedAt
                ? `, resolved ${formatDateTime(alert.closedAt)}`
                : ", open"}
            </li>
          ))}
        </ul>
      )}
      <h2 className="heading-m">What changed</h2>
      {timeline.length === 0 ? (
        <p>Not checked yet.</p>
      ) : (
        <table className="data-table">
          <caption className="visually-hidden">
            Every change VICS has seen, newest first
          </caption>
          <thead>
            <tr>
              <th scope="col">Seen</th>
              <th scope="col">What</th>
              <th scope="col">Before</th>
              <th scope="col">After</th>
            </tr>
          </thead>
          <tbody>
            {timeline.map((entry, index) => (
              <tr key={index}>
                <td>{formatDateTime(entry.at)}</td>
                <th scope="row">{AREA_NAMES[entry.area]}</th>
                <td>
                  {areaWords(entry.area, entry.before, "before", entry.after)}
                </td>
                <td>
                  {areaWords(entry.area, entry.after, "after", entry.before)}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}
