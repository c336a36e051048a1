// A saved fleet's vehicles as a table: the registration (to its timeline), the team's columns,
// the insurance in words (never a stale green: "Unknown since"), the open alerts with their
// dates, when last checked and, with "changed since", what moved. After "Show more", the first
// row just drawn takes the focus on its registration, so the user carries on where they were.
import { useEffect, useRef } from "react";
import { Link } from "react-router";
import { formatRegistration } from "@vics/shared";
import { formatDateTime } from "../../../lib/dates.ts";
import { alertWords } from "../lib/alert-words.ts";
import { changeWords } from "../lib/change-words.ts";
import { fleetPaths } from "../lib/fleet-paths.ts";
import type { WatchedEntry } from "../lib/watched-view.ts";

interface WatchedTableProps {
  entries: readonly WatchedEntry[];
  columns: readonly string[];
  /** Show what moved: the page asked with "changed since". */
  changes: boolean;
  /** The visible words that say which vehicles these are. */
  captionId: string;
  /** The row whose registration takes the focus: the first one "Show more" drew. */
  focusRow?: number;
}

export function WatchedTable({
  entries,
  columns,
  changes,
  captionId,
  focusRow,
}: WatchedTableProps) {
  const focusLink = useRef<HTMLAnchorElement>(null);
  useEffect(() => {
    if (focusRow !== undefined) focusLink.current?.focus();
  }, [focusRow]);
  return (
    <table className="data-table" aria-describedby={captionId}>
      <caption className="visually-hidden">
        The fleet’s vehicles, those needing action first
      </caption>
      <thead>
        <tr>
          <th scope="col">Registration</th>
          {columns.map((column) => (
            <th scope="col" key={column}>
              {column}
            </th>
          ))}
          <th scope="col">Insurance</th>
          <th scope="col">Needs attention</th>
          <th scope="col">Last checked</th>
          {changes && <th scope="col">What changed</th>}
        </tr>
      </thead>
      <tbody>
        {entries.map(({ vehicle, words }, index) => (
          <tr key={vehicle.registration}>
            <th scope="row">
              <Link
                to={fleetPaths.watchedVehicle(vehicle.registration)}
                ref={index === focusRow ? focusLink : undefined}
              >
                {formatRegistration(vehicle.registration)}
              </Link>
            </th>
            {vehicle.cells.map((cell, index) => (
              <td key={index}>{cell}</td>
            ))}
            <td>{words}</td>
            <td>
              {/* Never checked: nothing is known, which is not "Nothing" to attend to. */}
              {vehicle.alerts.length === 0 ? (
                vehicle.facts === null ? (
                  "Not known yet"
                ) : (
                  "Nothing"
                )
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
            {changes && (
              <td>
                <ul className="saved-fleets__alerts">
                  {(vehicle.changes ?? []).map((change, index) => (
                    <li key={index}>{changeWords(change)}</li>
                  ))}
                </ul>
              </td>
            )}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
