// The msw server that stands in for the proxy in every web test. Every test starts signed in
// (test/auth-fixtures.ts) with the proxy's recent checks faked; other handlers are added per
// test.
import { AUTH_PATHS, NOTIFICATION_PATHS } from "@vics/shared";
import { HttpResponse, http } from "msw";
import { setupServer } from "msw/node";
import { recentChecksHandler } from "./recent-checks-handlers.ts";
import { SIGNED_IN_USER } from "./signed-in-user.ts";

export const server = setupServer(
  http.get(AUTH_PATHS.session, () =>
    HttpResponse.json({
      user: SIGNED_IN_USER,
      expiresAt: "2026-11-24T18:00:00.000Z",
    }),
  ),
  recentChecksHandler,
  // The header's count of a fleet user's unread notifications: none, unless a test says.
  http.get(NOTIFICATION_PATHS.unread, () => HttpResponse.json({ unread: 0 })),
);
