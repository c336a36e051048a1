// The account page's password: change it (an account with one), set a first one (an account
// signed in by a one-time link, while passwords are on), or say why there is none.
import { useState } from "react";
import { useQuery } from "@tanstack/react-query";
import type { SessionUser } from "@vics/shared";
import { methodsQueryOptions } from "../api/auth-api.ts";
import { ChangePasswordForm } from "./change-password-form.tsx";
import { DoneNotice } from "./done-notice.tsx";
import { FirstPasswordForm } from "./first-password-form.tsx";

export function PasswordSection({ user }: { user: SessionUser }) {
  const methods = useQuery(methodsQueryOptions());
  const [justSet, setJustSet] = useState(false);

  if (user.hasPassword)
    return (
      <>
        {justSet && (
          <DoneNotice title="Your password has been set">
            <p>
              From now on, sign in with your email address and this password.
              You have been signed out of VICS everywhere else. This browser
              stays signed in.
            </p>
          </DoneNotice>
        )}
        <ChangePasswordForm />
      </>
    );
  if (user.hasOidcLink)
    return (
      <p>
        You sign in through your organisation, so there is no VICS password to
        change.
      </p>
    );
  if (methods.data?.local === false)
    return (
      <p>
        Passwords are turned off on this server, so your account has none. Link
        your organisation sign-in below to sign in with it from now on.
      </p>
    );
  return <FirstPasswordForm onSet={() => setJustSet(true)} />;
}
