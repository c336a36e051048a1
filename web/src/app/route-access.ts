// Who may open a route, and what happens when the session ends on it, as the route's `handle`.
import type { UIMatch } from "react-router";
import type { Role } from "@vics/shared";

export interface RouteAccess {
  /** The lowest role that may use the page; staff when absent. */
  needs?: Role;
  /**
   * The page keeps work in memory that a move to the sign-in page would cut short (a fleet
   * run): when the session ends there, it stays and says so itself.
   */
  staysWhenSignedOut?: boolean;
}

/** What the deepest route that says anything asks for. */
export function routeAccess(matches: readonly UIMatch[]): RouteAccess {
  for (const match of [...matches].reverse()) {
    const handle = match.handle as RouteAccess | undefined;
    if (handle && (handle.needs || handle.staysWhenSignedOut)) return handle;
  }
  return {};
}
