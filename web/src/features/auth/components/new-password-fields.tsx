// The new password and its confirmation, as every form that sets one asks for them: the rule as
// a hint, and the browser told it is a new password (so a password manager offers to make one).
import { TextField } from "../../../components/text-field.tsx";
import { NEW_PASSWORD_HINT, NEW_PASSWORD_IDS } from "../lib/new-password.ts";

interface Props {
  password: string;
  confirmation: string;
  onPasswordChange: (value: string) => void;
  onConfirmationChange: (value: string) => void;
  errorFor: (fieldId: string) => string | undefined;
}

export function NewPasswordFields(props: Props) {
  return (
    <>
      <TextField
        id={NEW_PASSWORD_IDS.password}
        label="New password"
        hint={NEW_PASSWORD_HINT}
        type="password"
        autoComplete="new-password"
        value={props.password}
        onChange={props.onPasswordChange}
        error={props.errorFor(NEW_PASSWORD_IDS.password)}
      />
      <TextField
        id={NEW_PASSWORD_IDS.confirmation}
        label="Confirm new password"
        type="password"
        autoComplete="new-password"
        value={props.confirmation}
        onChange={props.onConfirmationChange}
        error={props.errorFor(NEW_PASSWORD_IDS.confirmation)}
      />
    </>
  );
}
