// "/fleets/:fleetId": a saved fleet as its re-checks left it: each vehicle's status in words,
// its open alerts with their dates, the team's own columns, vehicles needing action first; and
// "Check this fleet now".
import { useEffect, useState } from "react";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Link, useParams } from "react-router";
import { isApiError } from "@vics/shared";
import { BusyButton } from "../../../components/busy-button.tsx";
import { DocumentTitle } from "../../../components/document-title.tsx";
import { ErrorPanel } from "../../../components/error-panel.tsx";
import { LoadingMessage } from "../../../components/loading-message.tsx";
import { formatDateTime } from "../../../lib/dates.ts";
import {
  checkFleetNow,
  fleetStatusQueryOptions,
  savedFleetQueryOptions,
} from "../api/saved-fleets-api.ts";
import { alertWords, watchedStatus } from "../lib/alert-words.ts";
import { fleetPaths } from "../lib/fleet-paths.ts";
import { inActionOrder, statusCounts } from "../lib/watched-order.ts";
import { UpdateFleetPanel } from "./update-fleet-panel.tsx";
import "../saved-fleets.css";

const FOLLOW_EVERY_MS = 3000;
const FOLLOW_FOR_MS = 120_000;

const COUNT_WORDS = [
  ["not-insured", "not insured"],
  ["unknown", "unknown (no answer yet)"],
  ["not-found", "not found"],
  ["pending", "new, not yet on record"],
  ["not-checked-yet", "not checked yet"],
  ["insured", "insured"],
] as const;

export function SavedFleetPage() {
  const { fleetId = "" } = useParams();
  const queryClient = useQueryClient();
  const fleet = useQuery(savedFleetQueryOptions(fleetId));
  // After "Check this fleet now", the answers are fetched as they arrive, for a while.
  const [following, setFollowing] = useState(false);
  const status = useQuery({
    ...fleetStatusQueryOptions(fleetId),
    refetchInterval: following ? FOLLOW_EVERY_MS : false,
  });
  const [checking, setChecking] = useState(false);
  const [checkNote, setCheckNote] = useState<string>();
  useEffect(() => {
    if (!following) return;
    const stop = setTimeout(() => setFollowing(false), FOLLOW_FOR_MS);
    return () => clearTimeout(stop);
  }, [following]);

  async function checkNow() {
    setChecking(true);
    try {
      const { queued } = await checkFleetNow(fleetId);
      setCheckNote(
        `Checking ${queued.toLocaleString("en-GB")} vehicles now. Their answers appear here as they arrive.`,
      );
      setFollowing(true);
      await queryClient.invalidateQueries({ queryKey: ["fleets", fleetId] });
    } catch (error) {
      setCheckNote(
        isApiError(error)
          ? error.detail
          : "VICS could not start the check. Try again.",
      );
    } finally {
      setChecking(false);
    }
  }

  if (fleet.isPending || status.isPending)
    return <LoadingMessage>Opening the fleet…</LoadingMessage>;
  if (fleet.isError || status.isError)
    return (
      <ErrorPanel
        error={fleet.error ?? status.error}
        onRetry={() => {
          void fleet.refetch();
          void status.refetch();
        }}
      />
    );

  const vehicles = inActionOrder(status.data.vehicles);
  const counts = statusCounts(vehicles);
  return (
    <div>
      <DocumentTitle title={`${fleet.data.name} – Fleets`} />
      <p className="back-link">
        <Link to={fleetPaths.savedFleets()}>Fleets</Link>
      </p>
      <h1 className="heading-l">
        <span className="heading-caption">Fleet</span> {fleet.data.name}
      </h1>
      <p>
        {fleet.data.vehicleCount.toLocaleString("en-GB")} vehicles, re-checked
        every day. Last changed {formatDateTime(fleet.data.updated.at)}
        {fleet.data.updated.by ? ` by ${fleet.data.updated.by}` : ""}.
      </p>
      <ul className="saved-fleets__list" aria-label="Vehicles by status">
        {COUNT_WORDS.filter(([key]) => counts[key] > 0).map(([key, words]) => (
          <li key={key}>
            {counts[key].toLocaleString("en-GB")} {words}
          </li>
        ))}
      </ul>
      <BusyButton
        busy={checking}
        busyLabel="Starting…"
        secondary
        onClick={() => void checkNow()}
      >
        Check this fleet now
      </BusyButton>
      {checkNote && <p role="status">{checkNote}</p>}
      <table className="data-table">
        <caption className="visually-hidden">
          The fleet’s vehicles, those needing action first
        </caption>
        <thead>
          <tr>
            <th scope="col">Registration</th>
            {fleet.data.columns.map((column) => (
              <th scope="col" key={column}>
                {column}
              </th>
            ))}
            <th scope="col">Insurance</th>
            <th scope="col">Needs attention</th>
            <th scope="col">Last checked</th>
          </tr>
        </thead>
        <tbody>
          {vehicles.map((vehicle) => (
            <tr key={vehicle.registration}>
              <th scope="row">
                <Link to={fleetPaths.watchedVehicle(vehicle.registration)}>
                  {vehicle.registration}
                </Link>
              </th>
              {vehicle.cells.map((cell, index) => (
                <td key={index}>{cell}</td>
              ))}
              <td>{watchedStatus(vehicle).words}</td>
              <td>
                {vehicle.alerts.length === 0 ? (
                  "Nothing"
                ) : (
                  <ul className="saved-fleets__alerts">
                    {vehicle.alerts.map((alert) => (
                      <li key={alert.id}>{alertWords(alert)}</li>
                    ))}
                  </ul>
                )}
              </td>
              <td>
                {vehicle.checkedAt
                  ? formatDateTime(vehicle.checkedAt)
                  : "Not yet"}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <UpdateFleetPanel fleetId={fleetId} />
    </div>
  );
}
