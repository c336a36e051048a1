// On a list's review, for users with the fleet role: save it as a watched fleet without checking
// it now, with the same panel as under a finished check. The daily re-checks then check it. Its
// rows with no valid registration, excluded or repeating a vehicle are not saved: it says so.
import { useMemo, useState } from "react";
import { hasRole } from "@vics/shared";
import { useSessionUser } from "../../../lib/session-user.ts";
import { fleetList } from "../lib/fleet-from-run.ts";
import type { ListDraft } from "../lib/list-draft.ts";
import { SaveFleetPanel } from "./save-fleet-panel.tsx";
import { count } from "../../../lib/count.ts";

const plural = (value: number, one: string, many: string) =>
  `${count(value)} ${value === 1 ? one : many}`;

export function SaveListFleet({ draft }: { draft: ListDraft }) {
  const user = useSessionUser();
  // The panel comes with the first opening, and stays: what was saved is still said after.
  const [opened, setOpened] = useState(false);
  const vehicles = useMemo(
    () => fleetList(draft.rows, draft.extraColumns).vehicles.length,
    [draft.rows, draft.extraColumns],
  );
  if (!user || !hasRole(user.role, "fleet") || vehicles === 0) return null;
  const leftOut = draft.rows.length - vehicles;
  const columns =
    draft.extraColumns.length > 0
      ? `, with your columns (${draft.extraColumns.join(", ")}),`
      : "";

  return (
    <details
      className="save-list-fleet"
      onToggle={(event) => {
        if (event.currentTarget.open) setOpened(true);
      }}
    >
      <summary className="save-list-fleet__summary">
        Save as a watched fleet without checking
      </summary>
      {opened && (
        <SaveFleetPanel
          list={{
            name: draft.table.source,
            rows: draft.rows,
            extraColumns: draft.extraColumns,
          }}
          intro={
            <>
              <p>
                Save {plural(vehicles, "vehicle", "vehicles")}
                {columns} as one of your team’s fleets without checking them
                now: VICS checks them in its daily re-checks and tells you when
                something changes.
              </p>
              {leftOut > 0 && (
                <p>
                  {plural(leftOut, "row is", "rows are")} left out (no valid
                  registration, excluded, or repeating a vehicle).
                </p>
              )}
            </>
          }
        />
      )}
    </details>
  );
}
