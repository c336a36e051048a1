// The four checks as a list, each with a heading, Pass or Fail in words and an icon, and its reason.
import { StatusIcon } from "../../../components/status-icon.tsx";
import type { CheckBadge } from "../lib/check-badges.ts";

export function CheckBadgeList({ badges }: { badges: CheckBadge[] }) {
  return (
    <ul className="check-badges" aria-label="Checks">
      {badges.map((badge) => {
        const status = badge.passed ? "pass" : "fail";
        return (
          <li
            key={badge.id}
            className={`check-badge check-badge--${status}`}
            data-check={badge.id}
          >
            <h3 className="check-badge__name">{badge.name}</h3>
            <p className="check-badge__result">
              <StatusIcon status={status} />
              {badge.passed ? "Pass" : "Fail"}
            </p>
            {badge.reason && (
              <p className="check-badge__reason">{badge.reason}</p>
            )}
          </li>
        );
      })}
    </ul>
  );
}
