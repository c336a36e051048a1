/**
 * The session cookie's name (with `__Host-` before it on https), which the gateway's OpenAPI
 * copy tells programs to send back with every call; the team's sessions set it.
 */
export const SESSION_COOKIE = "vics_session";
