// What the careful BFF shares with the real proxy's answers and with the bench that starts it:
// the session cookie's name, and the proxy's own Content-Security-Policy, so the floor's
// security headers are the proxy's.

/** The proxy's cookie on plain http (proxy/src/auth/sessions.ts sessionCookie). */
export const SESSION_COOKIE = "vics_session";

export { CONTENT_SECURITY_POLICY } from "../../proxy/src/http/content-security-policy.ts";
