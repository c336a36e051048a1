// A button that says it is busy while its work runs, and ignores presses until then. With no
// onClick it submits its form (whose handler ignores a submit while busy).
interface BusyButtonProps {
  busy: boolean;
  /** The words while busy, e.g. "Checking again…". */
  busyLabel: string;
  onClick?: () => void;
  secondary?: boolean;
  /** The id of what tells this button apart from others with the same words (a table row's). */
  describedBy?: string;
  children: string;
}

export function BusyButton({
  busy,
  busyLabel,
  onClick,
  secondary = false,
  describedBy,
  children,
}: BusyButtonProps) {
  return (
    <button
      type={onClick ? "button" : "submit"}
      className={secondary ? "button button--secondary" : "button"}
      // aria-disabled, not disabled, so keyboard focus stays on the button.
      onClick={busy ? undefined : onClick}
      aria-disabled={busy || undefined}
      aria-describedby={describedBy}
    >
      {busy ? busyLabel : children}
    </button>
  );
}
