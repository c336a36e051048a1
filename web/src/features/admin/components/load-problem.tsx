// An admin list that could not be loaded: what could not be shown, why in words for the admin's
// role, and "Try again" (busy while it does).
import { BusyButton } from "../../../components/busy-button.tsx";
import { useSessionUser } from "../../../lib/session-user.ts";
import { adminProblemWords } from "../lib/admin-problems.ts";

export function LoadProblem({
  title,
  error,
  retrying,
  onRetry,
}: {
  title: string;
  error: unknown;
  retrying: boolean;
  onRetry: () => void;
}) {
  const me = useSessionUser();
  return (
    <div className="notice" role="alert">
      <p className="notice__title">{title}</p>
      <p>{adminProblemWords(error, me?.role)}</p>
      <BusyButton busy={retrying} busyLabel="Trying again…" onClick={onRetry}>
        Try again
      </BusyButton>
    </div>
  );
}
