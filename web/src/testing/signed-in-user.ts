// Who every test is signed in as unless it says otherwise: a fleet user, so every check shows.
import type { SessionUser } from "@vics/shared";

export const SIGNED_IN_USER: SessionUser = {
  id: "user-sam",
  email: "sam.taylor@example.org",
  name: "Sam Taylor",
  role: "fleet",
  hasPassword: true,
  hasOidcLink: false,
};
