// A message screen readers read out when it appears or changes: its live region is always in
// the page, empty while there is nothing to say, because a region that arrives together with its
// words is often not announced at all (WCAG 4.1.3, status messages). An error is an alert.
import type { ReactNode } from "react";

interface LiveMessageProps {
  children?: ReactNode;
  /** An error, read out at once: role "alert" rather than "status". */
  alert?: boolean;
  /** For the words, when there are some. */
  className?: string;
}

export function LiveMessage({ children, alert, className }: LiveMessageProps) {
  const empty =
    children === undefined ||
    children === null ||
    children === false ||
    children === "";
  return (
    <div role={alert ? "alert" : "status"}>
      {!empty && <p className={className}>{children}</p>}
    </div>
  );
}
