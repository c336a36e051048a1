// The areas of the primary navigation, each shown only to the roles that can use it, in three
// groups: the checks, the saved fleets, and administration (behind an "Admin" button). Flip
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
  /** Which group of the navigation it is shown in. */
  group: NavGroupId;
}

export type NavGroupId = "checks" | "fleets" | "admin";

export interface NavGroup {
  id: NavGroupId;
  /** Its name to a screen reader; the admin group's is also its menu button's words. */
  label: string;
  /** Folded behind a button (a disclosure) that opens a short list of its areas. */
  menu: boolean;
}

/** The groups in the order they are shown: what staff do most first, administration last. */
export const NAV_GROUPS: NavGroup[] = [
  { id: "checks", label: "Vehicle checks", menu: false },
  { id: "fleets", label: "Saved fleets", menu: false },
  { id: "admin", label: "Admin", menu: true },
];

/** In the order shown: the checks, then the fleets, then administration. */
export const NAV_AREAS: NavArea[] = [
  {
    label: "Insurance check",
    to: "/",
    activeOn: ["/", "/vehicle/*"],
    comingNext: false,
    group: "checks",
  },
  {
    label: "Compliance check",
    to: "/compliance",
    activeOn: ["/compliance/*"],
    comingNext: false,
    group: "checks",
  },
  {
    label: "Fleet check",
    to: "/fleet",
    activeOn: ["/fleet/*"],
    comingNext: false,
    needs: "fleet",
    group: "checks",
  },
  {
    label: "Fleets",
    to: "/fleets",
    activeOn: ["/fleets", "/fleets/*"],
    comingNext: false,
    needs: "fleet",
    group: "fleets",
  },
  {
    label: "Notifications",
    to: "/notifications",
    activeOn: ["/notifications"],
    comingNext: false,
    needs: "fleet",
    group: "fleets",
  },
  {
    label: "Users",
    to: "/admin/users",
    activeOn: ["/admin/users/*"],
    comingNext: false,
    needs: "admin",
    group: "admin",
  },
  {
    label: "Audit log",
    to: "/admin/audit",
    activeOn: ["/admin/audit/*"],
    comingNext: false,
    needs: "admin",
    group: "admin",
  },
  {
    label: "Data",
    to: "/admin/data",
    activeOn: ["/admin/data/*"],
    comingNext: false,
    needs: "admin",
    group: "admin",
  },
  {
    label: "Sources",
    to: "/admin/sources",
    activeOn: ["/admin/sources/*"],
    comingNext: false,
    needs: "admin",
    group: "admin",
  },
  {
    label: "Alerts",
    to: "/admin/alerts",
    activeOn: ["/admin/alerts/*"],
    comingNext: false,
    needs: "admin",
    group: "admin",
  },
];

/** The areas a role can use, in order. */
export function navAreasFor(role: Role): NavArea[] {
  return NAV_AREAS.filter(
    (area) => area.needs === undefined || hasRole(role, area.needs),
  );
}

/** The groups with an area `role` can use, each with those areas, in order. */
export function navGroupsFor(role: Role): (NavGroup & { areas: NavArea[] })[] {
  const areas = navAreasFor(role);
  return NAV_GROUPS.map((group) => ({
    ...group,
    areas: areas.filter((area) => area.group === group.id),
  })).filter((group) => group.areas.length > 0);
}

/** The area a path belongs to, if any: the navigation marks it, and leaving it moves focus. */
export function areaAt(pathname: string): NavArea | undefined {
  return NAV_AREAS.find((area) =>
    area.activeOn.some((pattern) => matchPath(pattern, pathname) !== null),
  );
}
