// The signed-in user's last checks, from any computer, each a link back to its result.
import { Link } from "react-router";
import { appPaths } from "../lib/app-paths.ts";
import { formatDate, formatRelativeTime } from "../lib/dates.ts";
import { useRecentChecks, type RecentCheck } from "../lib/recent-checks.ts";
import { useNow } from "../lib/use-now.ts";
import { NumberPlate } from "./number-plate.tsx";

const KIND_LABELS: Record<RecentCheck["kind"], string> = {
  insurance: "Insurance",
  compliance: "Compliance",
};

function hrefFor(check: RecentCheck): string {
  const path =
    check.kind === "insurance"
      ? appPaths.insurance(check.registration)
      : appPaths.compliance(check.registration);
  return check.date === undefined
    ? path
    : `${path}?${new URLSearchParams({ date: check.date }).toString()}`;
}

export function RecentChecks() {
  const query = useRecentChecks();
  const checks = query.data ?? [];
  const now = useNow();

  return (
    <section className="recent-checks" aria-labelledby="recent-checks-heading">
      <h2 id="recent-checks-heading" className="heading-m">
        Recent checks
      </h2>
      <p className="hint">Your last checks, on any computer.</p>
      {query.isPending ? (
        <p className="recent-checks__empty">Loading your recent checks…</p>
      ) : query.isError && checks.length === 0 ? (
        <p className="recent-checks__empty">
          Your recent checks cannot be shown just now.{" "}
          <button
            type="button"
            className="link-button"
            onClick={() => void query.refetch()}
          >
            Try again
          </button>
        </p>
      ) : checks.length === 0 ? (
        <p className="recent-checks__empty">
          Checks you make will be listed here.
        </p>
      ) : (
        <ol className="recent-checks__list">
          {checks.map((check) => (
            <li
              key={`${check.kind}-${check.registration}-${check.date ?? ""}`}
              className="recent-checks__item"
            >
              <Link className="recent-checks__link" to={hrefFor(check)}>
                <NumberPlate registration={check.registration} size="small" />
                <span className="recent-checks__outcome">
                  {KIND_LABELS[check.kind]}: {check.outcome}
                  {check.date && ` on ${formatDate(check.date)}`}
                </span>
              </Link>
              <time className="recent-checks__when" dateTime={check.checkedAt}>
                {formatRelativeTime(check.checkedAt, now)}
              </time>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
