// What came of an action in a section (replay a delivery, rotate a webhook's secret, save a
// fleet's alert rule):
// a problem as an alert with its title, and the done words in a status line that stays on the
// page, so they are announced.
import { LiveMessage } from "./live-message.tsx";

export function ActionNotes({
  problemTitle,
  problem,
  done,
}: {
  problemTitle: string;
  problem: string | undefined;
  done: string;
}) {
  return (
    <>
      {problem && (
        <div className="notice" role="alert">
          <p className="notice__title">{problemTitle}</p>
          <p>{problem}</p>
        </div>
      )}
      <LiveMessage>{done}</LiveMessage>
    </>
  );
}
