// The last checks made in this browser, each a link back to its result, with a way to clear them.
import { useRef } from "react";
import { Link } from "react-router";
import { appPaths } from "../lib/app-paths.ts";
import { formatRelativeTime } from "../lib/dates.ts";
import {
  clearRecentChecks,
  useRecentChecks,
  type RecentCheck,
} from "../lib/recent-checks.ts";
import { useNow } from "../lib/use-now.ts";
import { NumberPlate } from "./number-plate.tsx";

const KIND_LABELS: Record<RecentCheck["kind"], string> = {
  insurance: "Insurance",
  compliance: "Compliance",
};

function hrefFor(check: RecentCheck): string {
  return check.kind === "insurance"
    ? appPaths.insurance(check.registration)
    : appPaths.compliance(check.registration);
}

export function RecentChecks() {
  const checks = useRecentChecks();
  const now = useNow();
  const headingRef = useRef<HTMLHeadingElement>(null);

  function clear() {
    clearRecentChecks();
    // The button disappears with the list: keep keyboard focus in this section.
    headingRef.current?.focus();
  }

  return (
    <section className="recent-checks" aria-labelledby="recent-checks-heading">
      <h2
        id="recent-checks-heading"
        className="heading-m"
        ref={headingRef}
        tabIndex={-1}
      >
        Recent checks
      </h2>
      <p className="hint">Kept in this browser only.</p>
      {checks.length === 0 ? (
        <p className="recent-checks__empty">
          Checks you make will be listed here.
        </p>
      ) : (
        <>
          <ol className="recent-checks__list">
            {checks.map((check) => (
              <li
                key={`${check.kind}-${check.registration}`}
                className="recent-checks__item"
              >
                <Link className="recent-checks__link" to={hrefFor(check)}>
                  <NumberPlate registration={check.registration} size="small" />
                  <span className="recent-checks__outcome">
                    {KIND_LABELS[check.kind]}: {check.outcome}
                  </span>
                </Link>
                <time
                  className="recent-checks__when"
                  dateTime={check.checkedAt}
                >
                  {formatRelativeTime(check.checkedAt, now)}
                </time>
              </li>
            ))}
          </ol>
          <button
            type="button"
            className="button button--secondary"
            onClick={clear}
          >
            Clear recent checks
          </button>
        </>
      )}
    </section>
  );
}
