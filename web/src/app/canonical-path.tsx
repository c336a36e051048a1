// One URL per page: "/compliance/" and "/vehicle/AB12CDE/" move to the same address without
// the trailing slash, so a shared or bookmarked link always looks like the one the app makes.
import { Navigate, Outlet, useLocation } from "react-router";

export function CanonicalPath() {
  const { pathname, search, hash } = useLocation();
  if (pathname.length > 1 && pathname.endsWith("/")) {
    const canonical = pathname.replace(/\/+$/, "") || "/";
    return <Navigate replace to={{ pathname: canonical, search, hash }} />;
  }
  return <Outlet />;
}
