// The primary navigation: the areas the signed-in user's role can use, in groups (the checks,
// the saved fleets, administration behind an "Admin" button), the current one marked with
// aria-current, on one line on a wide screen. On a phone it folds behind a "Menu" button (the
// GOV.UK service navigation pattern), so the answer to a check is not pushed below the first
// screen.
import { useEffect, useId, useRef } from "react";
import { Link, useLocation } from "react-router";
import type { Role } from "@vics/shared";
import { useUnreadNotifications } from "../../lib/use-notifications.ts";
import { areaAt, navGroupsFor, type NavArea } from "../nav-areas.ts";
import { useFoldOnNavigate } from "./use-fold-on-navigate.ts";

/** Only the areas `role` can use: a link to a page it cannot open would only disappoint. */
export function PrimaryNav({ role }: { role: Role }) {
  const { pathname } = useLocation();
  const current = areaAt(pathname);
  const listId = useId();
  // Going somewhere folds the menu again.
  const [open, setOpen] = useFoldOnNavigate();
  const unread = useUnreadNotifications(role);

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
          {navGroupsFor(role).map((group) =>
            group.menu ? (
              <li
                key={group.id}
                className="primary-nav__group primary-nav__group--menu"
              >
                <NavMenu
                  label={group.label}
                  areas={group.areas}
                  current={current}
                  unread={unread}
                />
              </li>
            ) : (
              <li key={group.id} className="primary-nav__group">
                <ul
                  className="primary-nav__group-list"
                  aria-label={group.label}
                >
                  {group.areas.map((area) => (
                    <li key={area.to} className="primary-nav__item">
                      <AreaLink area={area} current={current} unread={unread} />
                    </li>
                  ))}
                </ul>
              </li>
            ),
          )}
        </ul>
      </div>
    </nav>
  );
}

/**
 * The navigation's bar with nothing in it, while who is signed in is being asked: the same
 * height as the navigation on a phone (its Menu button) and on a wide screen (a link), so the
 * page below does not move when the navigation arrives.
 */
export function PrimaryNavPlaceholder() {
  return (
    <div className="primary-nav primary-nav--placeholder" aria-hidden="true">
      <div className="primary-nav__inner width-container">
        <span className="primary-nav__toggle">Menu</span>
        <span className="primary-nav__list">
          <span className="primary-nav__link">Insurance check</span>
        </span>
      </div>
    </div>
  );
}

function AreaLink({
  area,
  current,
  unread,
}: {
  area: NavArea;
  current: NavArea | undefined;
  unread: number | undefined;
}) {
  return (
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
        <span className="tag tag--grey primary-nav__tag">Coming next</span>
      )}
    </Link>
  );
}

/**
 * A group behind a button (the disclosure pattern, not an ARIA menu: its items are links, and
 * Tab moves through them as through any links). Escape folds it and returns to the button;
 * so does focus or a click going elsewhere, and going to a page.
 */
function NavMenu({
  label,
  areas,
  current,
  unread,
}: {
  label: string;
  areas: NavArea[];
  current: NavArea | undefined;
  unread: number | undefined;
}) {
  const menuId = useId();
  const button = useRef<HTMLButtonElement>(null);
  const groupRef = useRef<HTMLDivElement>(null);
  const [open, setOpen] = useFoldOnNavigate();
  const holdsCurrent = current !== undefined && areas.includes(current);

  // Listened for on the group (its button and its links), not handled by either alone.
  useEffect(() => {
    const group = groupRef.current;
    if (!open || !group) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== "Escape") return;
      event.preventDefault();
      setOpen(false);
      button.current?.focus();
    };
    const onFocusOut = (event: FocusEvent) => {
      // Focus (a Tab past the last item, a click on the page) left the group.
      if (!group.contains(event.relatedTarget as Node | null)) setOpen(false);
    };
    group.addEventListener("keydown", onKeyDown);
    group.addEventListener("focusout", onFocusOut);
    return () => {
      group.removeEventListener("keydown", onKeyDown);
      group.removeEventListener("focusout", onFocusOut);
    };
  }, [open, setOpen]);

  return (
    <div className="primary-nav__menu" ref={groupRef}>
      <button
        ref={button}
        type="button"
        className={`primary-nav__link primary-nav__menu-button${holdsCurrent ? " primary-nav__menu-button--current" : ""}`}
        aria-expanded={open}
        aria-controls={menuId}
        onClick={() => setOpen(!open)}
      >
        {label}
      </button>
      <ul
        id={menuId}
        className="primary-nav__menu-list"
        aria-label={label}
        hidden={!open}
      >
        {areas.map((area) => (
          <li key={area.to} className="primary-nav__item">
            <AreaLink area={area} current={current} unread={unread} />
          </li>
        ))}
      </ul>
    </div>
  );
}
