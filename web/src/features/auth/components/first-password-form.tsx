// Setting a first password, for an account that has none (the first admin, someone signed in by
// a one-time link): the new one twice, no current one to give. The proxy's answer is the new
// session, which has a password: the account page then offers to change it. Only within 30
// minutes of the link's sign-in (the proxy's FIRST_PASSWORD_WINDOW_MS, decision 053): later,
// the proxy refuses (403 FORBIDDEN) in words that say what to do, shown as they are.
import { useState, type FormEvent } from "react";
import { BusyButton } from "../../../components/busy-button.tsx";
import { ErrorSummary } from "../../../components/error-summary.tsx";
import { useFormErrors } from "../../../components/use-form-errors.ts";
import { useFirstPasswordMutation } from "../api/auth-api.ts";
import {
  NEW_PASSWORD_IDS,
  newPasswordErrors,
  passwordRefusal,
} from "../lib/new-password.ts";
import { NewPasswordFields } from "./new-password-fields.tsx";

export function FirstPasswordForm({ onSet }: { onSet: () => void }) {
  const form = useFormErrors();
  const [password, setPassword] = useState("");
  const [confirmation, setConfirmation] = useState("");
  const setting = useFirstPasswordMutation({
    onSuccess: onSet,
    // The proxy's words say why (passwordRefusal); the hook asks for the session again when
    // the account has a password now or signs in through its organisation.
    onError: (error) =>
      form.show([
        { fieldId: NEW_PASSWORD_IDS.password, message: passwordRefusal(error) },
      ]),
  });
  // Busy from then on: the account page shows the change form once the session is in.
  const busy = setting.isPending || setting.isSuccess;

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    const errors = newPasswordErrors(password, confirmation);
    if (errors.length > 0) return form.show(errors);
    setting.mutate(password);
  }

  return (
    <section aria-labelledby="first-password-heading">
      <h2 id="first-password-heading" className="heading-m">
        Set a password
      </h2>
      <p>
        Your account has no password yet: you signed in with a one-time link.
        Set a password to sign in with your email address and this password from
        now on.
      </p>
      <p>
        For your safety, do it within 30 minutes of signing in with the link.
        After that, you need a new link: ask an admin to send you a password
        reset.
      </p>
      {form.errors.length > 0 && (
        <ErrorSummary errors={form.errors} attempt={form.attempt} />
      )}
      <form noValidate onSubmit={submit}>
        <NewPasswordFields
          password={password}
          confirmation={confirmation}
          onPasswordChange={setPassword}
          onConfirmationChange={setConfirmation}
          errorFor={form.errorFor}
        />
        <BusyButton busy={busy} busyLabel="Setting…">
          Set password
        </BusyButton>
      </form>
    </section>
  );
}
