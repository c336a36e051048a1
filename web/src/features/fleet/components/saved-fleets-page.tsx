// "/fleets": the team's saved fleets, each with its size and who changed it last.
import { useQuery } from "@tanstack/react-query";
import { Link } from "react-router";
import { DocumentTitle } from "../../../components/document-title.tsx";
import { ErrorPanel } from "../../../components/error-panel.tsx";
import { LoadingMessage } from "../../../components/loading-message.tsx";
import { formatDateTime } from "../../../lib/dates.ts";
import { savedFleetsQueryOptions } from "../api/saved-fleets-api.ts";
import { fleetPaths } from "../lib/fleet-paths.ts";
import "../saved-fleets.css";

export function SavedFleetsPage() {
  const fleets = useQuery(savedFleetsQueryOptions());
  return (
    <div>
      <DocumentTitle title="Fleets" />
      <h1 className="heading-l">Your team’s fleets</h1>
      <p>
        VICS re-checks every vehicle of these fleets every day. Save a fleet
        from a finished <Link to={fleetPaths.start()}>fleet check</Link>.
      </p>
      {fleets.isPending ? (
        <LoadingMessage>Loading the fleets…</LoadingMessage>
      ) : fleets.isError ? (
        <ErrorPanel
          error={fleets.error}
          onRetry={() => void fleets.refetch()}
          retrying={fleets.isFetching}
        />
      ) : fleets.data.fleets.length === 0 ? (
        <p>No fleets yet.</p>
      ) : (
        <table className="data-table">
          <caption className="visually-hidden">Saved fleets</caption>
          <thead>
            <tr>
              <th scope="col">Fleet</th>
              <th scope="col" className="saved-fleets__numeric">
                Vehicles
              </th>
              <th scope="col">Last changed</th>
            </tr>
          </thead>
          <tbody>
            {fleets.data.fleets.map((fleet) => (
              <tr key={fleet.id}>
                <th scope="row">
                  <Link to={fleetPaths.savedFleet(fleet.id)}>{fleet.name}</Link>
                </th>
                <td className="saved-fleets__numeric">
                  {fleet.vehicleCount.toLocaleString("en-GB")}
                </td>
                <td>
                  {formatDateTime(fleet.updated.at)}
                  {fleet.updated.by ? ` by ${fleet.updated.by}` : ""}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}
