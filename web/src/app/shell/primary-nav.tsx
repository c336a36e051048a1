// The primary navigation: the areas the signed-in user's role can use, the current one marked
// with aria-current. On a phone it folds behind a "Menu" button (the GOV.UK service navigation
// pattern), so the answer to a check is not pushed below the first screen.
import { useId, useState } from "react";
import { Link, useLocation } from "react-router";
import type { Role } from "@vics/shared";
import { useUnreadNotifications } from "../../lib/use-notifications.ts";
import { areaAt, navAreasFor } from "../nav-areas.ts";

/** Only the areas `role` can use: a link to a page it cannot open would only disappoint. */
export function PrimaryNav({ role }: { role: Role }) {
  const { pathname } = useLocation();
  const current = areaAt(pathname);
  const listId = useId();
  const [open, setOpen] = useState(false);
  const unread = useUnreadNotifications(role);
  // Going somewhere folds the menu again.
  const [openedAt, setOpenedAt] = useState(pathname);
  if (openedAt !== pathname) {
    setOpenedAt(pathname);
    setOpen(false);
  }

  return (
    <nav className="primary-nav" aria-label="Primary">
      <div className="primary-nav__inner width-container">
        <button
          type="button"
          className="primary-nav__toggle"
          aria-controls={listId}
          aria-expanded={open}
          onClick={() => setOpen(!open)}
        >
          Menu
        </button>
        <ul
          id={listId}
          className={`primary-nav__list${open ? " primary-nav__list--open" : ""}`}
        >
          {navAreasFor(role).map((area) => (
            <li key={area.to} className="primary-nav__item">
              <Link
                to={area.to}
                className="primary-nav__link"
                aria-current={area === current ? "page" : undefined}
              >
                {area.label}
                {area.to === "/notifications" && unread ? (
                  <>
                    {" "}
                    <span className="tag primary-nav__tag">
                      {unread.toLocaleString("en-GB")}
                      <span className="visually-hidden"> unread</span>
                    </span>
                  </>
                ) : null}
                {area.comingNext && (
                  <span className="tag tag--grey primary-nav__tag">
                    Coming next
                  </span>
                )}
              </Link>
            </li>
          ))}
        </ul>
      </div>
    </nav>
  );
}
