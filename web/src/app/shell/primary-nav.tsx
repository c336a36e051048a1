// The primary navigation, marking the current area with aria-current.
import { Link, useLocation } from "react-router";
import { NAV_AREAS, areaAt } from "../nav-areas.ts";

export function PrimaryNav() {
  const current = areaAt(useLocation().pathname);
  return (
    <nav className="primary-nav" aria-label="Primary">
      <ul className="primary-nav__list width-container">
        {NAV_AREAS.map((area) => (
          <li key={area.to} className="primary-nav__item">
            <Link
              to={area.to}
              className="primary-nav__link"
              aria-current={area === current ? "page" : undefined}
            >
              {area.label}
              {area.comingNext && (
                <span className="tag tag--grey primary-nav__tag">
                  Coming next
                </span>
              )}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
