// Changing one's own password: the current one, the new one twice. Every other session of the
// user ends (the proxy's rule); this one goes on.
import { useState, type FormEvent } from "react";
import { ErrorSummary } from "../../../components/error-summary.tsx";
import { TextField } from "../../../components/text-field.tsx";
import { useFormErrors } from "../../../components/use-form-errors.ts";
import { isApiError } from "@vics/shared";
import { useChangePasswordMutation } from "../api/auth-api.ts";
import {
  NEW_PASSWORD_IDS,
  newPasswordErrors,
  passwordRefusal,
} from "../lib/new-password.ts";
import { DoneNotice } from "./done-notice.tsx";
import { NewPasswordFields } from "./new-password-fields.tsx";
import { BusyButton } from "../../../components/busy-button.tsx";

const IDS = { current: "current-password", ...NEW_PASSWORD_IDS };

export function ChangePasswordForm() {
  const form = useFormErrors();
  const [current, setCurrent] = useState("");
  const [password, setPassword] = useState("");
  const [confirmation, setConfirmation] = useState("");
  const changing = useChangePasswordMutation();
  const busy = changing.isPending;
  const [changed, setChanged] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    setChanged(false);
    const errors =
      current === ""
        ? [{ fieldId: IDS.current, message: "Enter your current password" }]
        : newPasswordErrors(password, confirmation);
    if (errors.length > 0) return form.show(errors);
    try {
      await changing.mutateAsync({ current, password });
      form.clear();
      setCurrent("");
      setPassword("");
      setConfirmation("");
      setChanged(true);
    } catch (error) {
      const wrongCurrent =
        isApiError(error) &&
        (error.code === "UNAUTHORIZED" || error.code === "FORBIDDEN");
      // Too many wrong current passwords: the refusal is about that field, not the new one.
      const throttled = isApiError(error) && error.code === "RATE_LIMITED";
      form.show([
        wrongCurrent
          ? {
              fieldId: IDS.current,
              message: "Your current password is not right",
            }
          : {
              fieldId: throttled ? IDS.current : IDS.password,
              message: passwordRefusal(error),
            },
      ]);
    }
  }

  return (
    <section aria-labelledby="change-password-heading">
      <h2 id="change-password-heading" className="heading-m">
        Change your password
      </h2>
      {changed && (
        <DoneNotice title="Your password has been changed">
          <p>
            You have been signed out of VICS everywhere else. This browser stays
            signed in.
          </p>
        </DoneNotice>
      )}
      {form.errors.length > 0 && (
        <ErrorSummary errors={form.errors} attempt={form.attempt} />
      )}
      <form noValidate onSubmit={(event) => void submit(event)}>
        <TextField
          id={IDS.current}
          label="Current password"
          type="password"
          autoComplete="current-password"
          value={current}
          onChange={setCurrent}
          error={form.errorFor(IDS.current)}
        />
        <NewPasswordFields
          password={password}
          confirmation={confirmation}
          onPasswordChange={setPassword}
          onConfirmationChange={setConfirmation}
          errorFor={form.errorFor}
        />
        <BusyButton busy={busy} busyLabel="Changing…">
          Change password
        </BusyButton>
      </form>
    </section>
  );
}
