// A page the signed-in user's role cannot use says so, and what it needs, instead of showing.
// Inside SessionGate, so a user is always signed in (or was, on a page that stays).
import { Outlet } from "react-router";
import { hasRole, type Role } from "@vics/shared";
import { RoleRequired } from "../components/role-required.tsx";
import { useSessionUser } from "../lib/session-user.ts";

export function RoleGate({ needs }: { needs: Role }) {
  const user = useSessionUser();
  if (!user) return null;
  if (!hasRole(user.role, needs))
    return <RoleRequired role={user.role} needed={needs} />;
  return <Outlet />;
}
