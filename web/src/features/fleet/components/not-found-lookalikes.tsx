// A vehicle the service does not know is often a plate typed with O for 0 or I for 1: offer the
// look-alikes, made by the same shared rule the single check's suggestions come from. The run
// did not ask about them, so each links to its own check, which answers for certain.
import { Link } from "react-router";
import { formatRegistration, lookalikeRegistrations } from "@vics/shared";
import { appPaths } from "../../../lib/app-paths.ts";
import type { ResultRow } from "../lib/results-view.ts";

/** As many as the single check's form offers. */
const MAX_LOOKALIKES = 3;

export function NotFoundLookalikes({ entry }: { entry: ResultRow }) {
  const registration = entry.row.registration;
  if (entry.outcome !== "not-found" || !registration) return null;
  const lookalikes = lookalikeRegistrations(registration, MAX_LOOKALIKES);
  // A plate with no O, 0, I or 1 has no such misreading: "not found" says it all.
  if (lookalikes.length === 0) return null;
  return (
    <span className="results-table__detail">
      . Check the letters O and 0, I and 1; try{" "}
      {lookalikes.map((lookalike, index) => (
        <span key={lookalike}>
          {index > 0 && " or "}
          <Link to={appPaths.insurance(lookalike)}>
            <span className="visually-hidden">Check insurance for</span>{" "}
            {formatRegistration(lookalike)}
          </Link>
        </span>
      ))}
      .
    </span>
  );
}
