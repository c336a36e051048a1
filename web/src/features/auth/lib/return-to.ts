// Where the browser goes after signing in: a path on this site only (never another origin, so
// a crafted link cannot send a member of staff elsewhere), and never back to a sign-in page.
import { isSameOriginPath } from "@vics/shared";

const SIGN_IN_PAGES = ["/sign-in", "/account/set-password"];

export function safeReturnTo(raw: string | null | undefined): string {
  if (!raw || raw.length > 2000 || !isSameOriginPath(raw)) return "/";
  const path = new URL(raw, "http://vics.invalid").pathname;
  if (
    SIGN_IN_PAGES.some((page) => path === page || path.startsWith(`${page}/`))
  )
    return "/";
  return raw;
}

/** The proxy's answer to a sign-out: its provider's sign-out page, or a path on this site. */
export function safeRedirect(raw: string): string {
  if (isSameOriginPath(raw)) return raw;
  try {
    const url = new URL(raw);
    if (url.protocol === "https:" || url.protocol === "http:") return url.href;
  } catch {
    // Not an address: go to the sign-in page.
  }
  return "/sign-in";
}
