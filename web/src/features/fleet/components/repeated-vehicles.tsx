// Which rows repeat which vehicle ("AB12 CDE: rows 4, 17 and 230"), so a fleet manager can find
// them in their list; each vehicle is still checked once and its answer goes to every such row.
import { useMemo, useState } from "react";
import { formatRegistration } from "@vics/shared";
import type { FleetRow } from "../lib/fleet-types.ts";
import { repeatedVehicles } from "../lib/parse/prepare-rows.ts";
import { rowsWords } from "../lib/row-words.ts";
import { count } from "../../../lib/count.ts";

/** Vehicles listed at once: a list with thousands of repeats stays usable. */
const VEHICLES = 20;

export function RepeatedVehicles({ rows }: { rows: FleetRow[] }) {
  const repeated = useMemo(() => repeatedVehicles(rows), [rows]);
  const [shown, setShown] = useState(VEHICLES);
  if (repeated.length === 0) return null;
  return (
    <section className="repeated-vehicles" aria-labelledby="repeated-heading">
      <h3 id="repeated-heading" className="heading-s">
        {repeated.length === 1
          ? "1 vehicle is in your list more than once"
          : `${count(repeated.length)} vehicles are in your list more than once`}
      </h3>
      <p>Each is checked once, and every row that holds it gets its answer.</p>
      <ul className="repeated-vehicles__list">
        {repeated.slice(0, shown).map(({ registration, lines }) => (
          <li key={registration}>
            <strong>{formatRegistration(registration)}</strong>:{" "}
            {rowsWords(lines)}
          </li>
        ))}
      </ul>
      {repeated.length > shown && (
        <button
          type="button"
          className="link-button"
          onClick={() => setShown((value) => value + VEHICLES * 5)}
        >
          Show more vehicles ({count(repeated.length - shown)} not shown)
        </button>
      )}
    </section>
  );
}
