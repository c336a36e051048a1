// A tick, cross or warning mark beside words that already say the same (never the only signal).
export type Status = "pass" | "fail" | "warning";

const PATHS: Record<Status, string> = {
  pass: "M6 12.5l4 4 8-9",
  fail: "M7 7l10 10M17 7L7 17",
  warning: "M12 6v8M12 17.5v.5",
};

interface StatusIconProps {
  status: Status;
  className?: string;
}

export function StatusIcon({ status, className }: StatusIconProps) {
  return (
    <svg
      className={`status-icon status-icon--${status} ${className ?? ""}`.trim()}
      viewBox="0 0 24 24"
      width="1.25em"
      height="1.25em"
      aria-hidden="true"
      focusable="false"
      data-status={status}
    >
      <circle cx="12" cy="12" r="11" className="status-icon__disc" />
      <path
        d={PATHS[status]}
        className="status-icon__mark"
        fill="none"
        strokeWidth="3"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </svg>
  );
}
