// What the careful BFF shares with the real proxy's answers and with the bench that starts it:
// the session cookie's name, and the Content-Security-Policy, copied from proxy/src/app.ts
// (which does not export it) so the floor's security headers are the proxy's.

/** The proxy's cookie on plain http (proxy/src/auth/sessions.ts sessionCookie). */
export const SESSION_COOKIE = "vics_session";

export const CONTENT_SECURITY_POLICY = {
  defaultSrc: ["'self'"],
  scriptSrc: ["'self'"],
  workerSrc: ["'self'", "blob:"],
  styleSrc: ["'self'"],
  imgSrc: ["'self'", "data:"],
  fontSrc: ["'self'"],
  connectSrc: ["'self'"],
  objectSrc: ["'none'"],
  baseUri: ["'self'"],
  formAction: ["'self'"],
  frameAncestors: ["'none'"],
};
