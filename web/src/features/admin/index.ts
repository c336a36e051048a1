// User administration, the audit log, the data, the sources and the alerts pages, as the app's
// routes use them (admins only): each page's code loads when it is first shown, on its own.

/** Each page's module, loaded on demand. */
export const adminPages = {
  users: () => import("./components/users-page.tsx"),
  audit: () => import("./components/audit-page.tsx"),
  data: () => import("./components/data-page.tsx"),
  sources: () => import("./components/sources-page.tsx"),
  alerts: () => import("./components/alerts-page.tsx"),
};
