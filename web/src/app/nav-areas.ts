// The areas of the primary navigation, each shown only to the roles that can use it. Flip
// `comingNext` when a feature lands.
import { matchPath } from "react-router";
import { hasRole, type Role } from "@vics/shared";

export interface NavArea {
  label: string;
  to: string;
  /** Route patterns (react-router matchPath) for which this area is the current one. */
  activeOn: string[];
  comingNext: boolean;
  /** The lowest role that can use it; staff when absent. */
  needs?: Role;
}

export const NAV_AREAS: NavArea[] = [
  {
    label: "Insurance check",
    to: "/",
    activeOn: ["/", "/vehicle/*"],
    comingNext: false,
  },
  {
    label: "Fleet check",
    to: "/fleet",
    activeOn: ["/fleet/*"],
    comingNext: false,
    needs: "fleet",
  },
  {
    label: "Fleets",
    to: "/fleets",
    activeOn: ["/fleets", "/fleets/*"],
    comingNext: false,
    needs: "fleet",
  },
  {
    label: "Notifications",
    to: "/notifications",
    activeOn: ["/notifications"],
    comingNext: false,
    needs: "fleet",
  },
  {
    label: "Compliance check",
    to: "/compliance",
    activeOn: ["/compliance/*"],
    comingNext: false,
  },
  {
    label: "Users",
    to: "/admin/users",
    activeOn: ["/admin/users/*"],
    comingNext: false,
    needs: "admin",
  },
  {
    label: "Audit log",
    to: "/admin/audit",
    activeOn: ["/admin/audit/*"],
    comingNext: false,
    needs: "admin",
  },
  {
    label: "Data",
    to: "/admin/data",
    activeOn: ["/admin/data/*"],
    comingNext: false,
    needs: "admin",
  },
  {
    label: "Alerts",
    to: "/admin/alerts",
    activeOn: ["/admin/alerts/*"],
    comingNext: false,
    needs: "admin",
  },
];

/** The areas a role can use, in order. */
export function navAreasFor(role: Role): NavArea[] {
  return NAV_AREAS.filter(
    (area) => area.needs === undefined || hasRole(role, area.needs),
  );
}

/** The area a path belongs to, if any: the navigation marks it, and leaving it moves focus. */
export function areaAt(pathname: string): NavArea | undefined {
  return NAV_AREAS.find((area) =>
    area.activeOn.some((pattern) => matchPath(pattern, pathname) !== null),
  );
}
