// "/account/set-password#token=...": an invitation's or a reset's link. The new password twice;
// the proxy may refuse it (a common one) and says why; once set, the user is signed in.
import { useLayoutEffect, useRef, useState, type FormEvent } from "react";
import { Link, useNavigate } from "react-router";
import { DocumentTitle } from "../../../components/document-title.tsx";
import { ErrorSummary } from "../../../components/error-summary.tsx";
import { useFormErrors } from "../../../components/use-form-errors.ts";
import { isApiError } from "@vics/shared";
import { appPaths } from "../../../lib/app-paths.ts";
import { PageErrorContext } from "../../../lib/use-document-title.ts";
import { setPassword } from "../api/auth-api.ts";
import { useSessionMutation } from "../api/session-query.ts";
import {
  NEW_PASSWORD_IDS,
  newPasswordErrors,
  passwordRefusal,
} from "../lib/new-password.ts";
import { forgetLinkToken } from "../lib/link-token.ts";
import { useLinkToken } from "../lib/use-link-token.ts";
import { NewPasswordFields } from "./new-password-fields.tsx";
import { BusyButton } from "../../../components/busy-button.tsx";

export function SetPasswordPage() {
  const token = useLinkToken();
  const navigate = useNavigate();
  const form = useFormErrors();
  const [password, setPasswordValue] = useState("");
  const [confirmation, setConfirmation] = useState("");
  const setting = useSessionMutation(
    ({ token, password }: { token: string; password: string }) =>
      setPassword(token, password),
    // Before the session is applied: the link has done its work.
    { onSuccess: () => forgetLinkToken() },
  );
  // Busy until the page has gone home.
  const busy = setting.isPending || setting.isSuccess;
  const [unusable, setUnusable] = useState(token === undefined);
  const heading = useRef<HTMLHeadingElement>(null);

  // A layout effect: focus moves in the same commit as the page that replaces the form.
  useLayoutEffect(() => {
    if (unusable) heading.current?.focus();
  }, [unusable]);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy || token === undefined) return;
    const errors = newPasswordErrors(password, confirmation);
    if (errors.length > 0) return form.show(errors);
    try {
      await setting.mutateAsync({ token, password });
      void navigate(appPaths.home(), {
        replace: true,
        state: { passwordSet: true },
      });
    } catch (error) {
      if (isApiError(error) && error.code === "LINK_NOT_USABLE") {
        forgetLinkToken();
        return setUnusable(true);
      }
      form.show([
        { fieldId: NEW_PASSWORD_IDS.password, message: passwordRefusal(error) },
      ]);
    }
  }

  if (unusable)
    return (
      <div className="grid-row">
        <div className="column-two-thirds">
          <DocumentTitle title="This link cannot be used" />
          <h1 className="heading-l" ref={heading} tabIndex={-1}>
            This link cannot be used
          </h1>
          <p>
            {token === undefined
              ? "The address is not complete: the part after the # is missing. Open the link from your message again, copying all of it."
              : "It has been used already, or it has expired. A link to set a password works once, for a few days."}
          </p>
          <p>Ask an admin to send you a new link.</p>
          <p>
            <Link to={appPaths.signIn()}>Sign in</Link> if you have a password
            already.
          </p>
        </div>
      </div>
    );

  return (
    <PageErrorContext value={form.errors.length > 0}>
      <div className="grid-row">
        <div className="column-two-thirds">
          <DocumentTitle title="Create your password" />
          {form.errors.length > 0 && (
            <ErrorSummary errors={form.errors} attempt={form.attempt} />
          )}
          <h1 className="heading-l">Create your password</h1>
          <p>You will use it with your email address to sign in to VICS.</p>
          <form noValidate onSubmit={(event) => void submit(event)}>
            <NewPasswordFields
              password={password}
              confirmation={confirmation}
              onPasswordChange={setPasswordValue}
              onConfirmationChange={setConfirmation}
              errorFor={form.errorFor}
            />
            <BusyButton busy={busy} busyLabel="Saving…">
              Save password and sign in
            </BusyButton>
          </form>
        </div>
      </div>
    </PageErrorContext>
  );
}
