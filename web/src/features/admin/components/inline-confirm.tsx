// Asking again inside a table row before an admin's action (disable a user, remove a webhook):
// the question in a labelled group, the action and Cancel as link buttons.
import type { ReactNode } from "react";

/** An inline form's two buttons: the action (submitting its form unless `onConfirm` is given), and Cancel. */
export function ConfirmOrCancel(props: {
  busy: boolean;
  onConfirm?: () => void;
  onCancel: () => void;
  children: ReactNode;
}) {
  return (
    <div className="users__inline-buttons">
      <button
        type={props.onConfirm ? "button" : "submit"}
        className="link-button"
        aria-disabled={props.busy || undefined}
        onClick={props.onConfirm}
      >
        {props.children}
      </button>
      <button type="button" className="link-button" onClick={props.onCancel}>
        Cancel
      </button>
    </div>
  );
}

/** The question, then the action (`children`, its button's words) and Cancel. */
export function InlineConfirm(props: {
  /** Names the group for a screen reader, such as "Confirm for Ann". */
  label: string;
  question: ReactNode;
  busy: boolean;
  onConfirm: () => void;
  onCancel: () => void;
  children: ReactNode;
}) {
  return (
    <div className="users__inline" role="group" aria-label={props.label}>
      <p>{props.question}</p>
      <ConfirmOrCancel
        busy={props.busy}
        onConfirm={props.onConfirm}
        onCancel={props.onCancel}
      >
        {props.children}
      </ConfirmOrCancel>
    </div>
  );
}
