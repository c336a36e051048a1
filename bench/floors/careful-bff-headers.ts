// What the careful BFF shares with the real proxy's answers and with the bench that starts it:
// the session cookie's name, and the proxy's own Content-Security-Policy, so the floor's
// security headers are the proxy's.

import { sessionCookie } from "../../proxy/src/team/auth/sessions.ts";

/** The proxy's cookie on plain http. */
export const SESSION_COOKIE = sessionCookie(undefined).name;

export { CONTENT_SECURITY_POLICY } from "../../proxy/src/gateway/http/content-security-policy.ts";
