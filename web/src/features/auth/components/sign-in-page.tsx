// "/sign-in?returnTo=/path": email and password, or the organisation's own sign-in when the
// proxy offers it; then back to where the user was going. "?oidc=<reason>": the
// organisation's sign-in was refused, and the page says why.
import { useState, type FormEvent } from "react";
import { useQuery } from "@tanstack/react-query";
import {
  Navigate,
  useLocation,
  useNavigate,
  useSearchParams,
} from "react-router";
import { SignInRequestSchema } from "@vics/shared";
import { DocumentTitle } from "../../../components/document-title.tsx";
import { ErrorSummary } from "../../../components/error-summary.tsx";
import { LoadingMessage } from "../../../components/loading-message.tsx";
import { TextField } from "../../../components/text-field.tsx";
import { useFormErrors } from "../../../components/use-form-errors.ts";
import { PageErrorContext } from "../../../lib/use-document-title.ts";
import { methodsQueryOptions, oidcStartUrl, signIn } from "../api/auth-api.ts";
import { useSession, useSessionMutation } from "../api/session-query.ts";
import { oidcRefusalWords } from "../lib/oidc-refusal.ts";
import { safeReturnTo } from "../lib/return-to.ts";
import { signInErrorWords } from "../lib/sign-in-errors.ts";
import { BusyButton } from "../../../components/busy-button.tsx";

const EMAIL_ID = "email";
const PASSWORD_ID = "password";

/** Set by the app when it sends someone here because their session ended. */
export interface SignInState {
  sessionEnded?: boolean;
}

export function SignInPage() {
  const [params] = useSearchParams();
  const location = useLocation();
  const returnTo = safeReturnTo(params.get("returnTo"));
  const session = useSession();
  const methods = useQuery(methodsQueryOptions());
  const navigate = useNavigate();
  const form = useFormErrors();
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const signingIn = useSessionMutation(
    ({ email, password }: { email: string; password: string }) =>
      signIn(email, password),
  );
  // Busy until the page has gone to where the user was going.
  const busy = signingIn.isPending || signingIn.isSuccess;
  const ended = (location.state as SignInState | null)?.sessionEnded === true;
  const refused = oidcRefusalWords(params.get("oidc"));

  if (session.status === "signed-in" && !busy)
    return <Navigate replace to={returnTo} />;

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    const parsed = SignInRequestSchema.safeParse({ email, password });
    if (!parsed.success) {
      form.show(
        parsed.error.issues.map((issue) => ({
          fieldId: issue.path[0] === "password" ? PASSWORD_ID : EMAIL_ID,
          message: issue.message,
        })),
      );
      return;
    }
    try {
      await signingIn.mutateAsync(parsed.data);
      void navigate(returnTo, { replace: true });
    } catch (error) {
      setPassword("");
      form.show([{ fieldId: EMAIL_ID, message: signInErrorWords(error) }]);
    }
  }

  const local = methods.data?.local ?? true;
  const oidc = methods.data?.oidc ?? null;
  const noWay = methods.data !== undefined && !local && oidc === null;
  // OIDC is set up but the proxy has not reached the provider yet (it keeps trying).
  const oidcDown = oidc !== null && !oidc.available;

  return (
    <PageErrorContext value={form.errors.length > 0}>
      <div className="grid-row">
        <div className="column-two-thirds">
          <DocumentTitle title="Sign in" />
          {form.errors.length > 0 && (
            <ErrorSummary errors={form.errors} attempt={form.attempt} />
          )}
          {refused && form.errors.length === 0 && (
            <div className="notice" role="alert">
              <p className="notice__title">You have not been signed in</p>
              <p>{refused}</p>
            </div>
          )}
          {ended && !refused && form.errors.length === 0 && (
            <div className="notice" role="note">
              <p className="notice__title">Your session has ended</p>
              <p>Sign in again to continue.</p>
            </div>
          )}
          <h1 className="heading-l">Sign in to VICS</h1>
          {methods.isPending ? (
            <LoadingMessage>Loading the ways to sign in…</LoadingMessage>
          ) : noWay ? (
            <p>
              No way to sign in is set up for VICS. Contact your administrator.
            </p>
          ) : (
            <>
              {oidcDown && !local && (
                <div className="notice" role="status">
                  <p className="notice__title">Signing in is unavailable</p>
                  <p>
                    Signing in is unavailable until VICS reaches your
                    organisation’s sign-in service. It keeps trying: reload this
                    page in a minute, and if it lasts, tell your IT team.
                  </p>
                </div>
              )}
              {oidc && !oidcDown && (
                <p>
                  <a className="button" href={oidcStartUrl(returnTo)}>
                    {oidc.label}
                  </a>
                </p>
              )}
              {oidc && !oidcDown && local && (
                <p className="sign-in__or">
                  Or sign in with your email address
                </p>
              )}
              {local && (
                <form noValidate onSubmit={(event) => void submit(event)}>
                  <TextField
                    id={EMAIL_ID}
                    label="Email address"
                    type="email"
                    autoComplete="username"
                    spellCheck={false}
                    value={email}
                    onChange={setEmail}
                    error={form.errorFor(EMAIL_ID)}
                  />
                  <TextField
                    id={PASSWORD_ID}
                    label="Password"
                    type="password"
                    autoComplete="current-password"
                    value={password}
                    onChange={setPassword}
                    error={form.errorFor(PASSWORD_ID)}
                  />
                  <BusyButton
                    busy={busy}
                    busyLabel="Signing in…"
                    secondary={oidc !== null && !oidcDown}
                  >
                    Sign in
                  </BusyButton>
                </form>
              )}
              <p className="hint">
                Forgotten your password, or no account yet? Ask an admin to send
                you a link to set one.
              </p>
            </>
          )}
        </div>
      </div>
    </PageErrorContext>
  );
}
