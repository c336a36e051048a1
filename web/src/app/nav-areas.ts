// The three areas of the primary navigation. Flip `comingNext` when a feature lands.
import { matchPath } from "react-router";

export interface NavArea {
  label: string;
  to: string;
  /** Route patterns (react-router matchPath) for which this area is the current one. */
  activeOn: string[];
  comingNext: boolean;
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
  },
  {
    label: "Compliance check",
    to: "/compliance",
    activeOn: ["/compliance/*"],
    comingNext: false,
  },
];

/** The area a path belongs to, if any: the navigation marks it, and leaving it moves focus. */
export function areaAt(pathname: string): NavArea | undefined {
  return NAV_AREAS.find((area) =>
    area.activeOn.some((pattern) => matchPath(pattern, pathname) !== null),
  );
}
