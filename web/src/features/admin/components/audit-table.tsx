// A page of audit events, newest first: when (UK time), who, what (with a counted event's
// attempts), which vehicles, how it ended, the request id support looks for (and the client's
// own, apart), and the client's address.
import { formatRegistration, type AuditEventAnswer } from "@vics/shared";
import {
  ACTION_WORDS,
  auditTime,
  detailWords,
  outcomeWords,
} from "../lib/audit-words.ts";
import { count } from "../../../lib/count.ts";

const SHOWN_REGISTRATIONS = 3;

function Registrations({ registrations }: { registrations: string[] }) {
  if (registrations.length === 0) return <span className="hint">None</span>;
  const plates = registrations.map(formatRegistration);
  if (plates.length <= SHOWN_REGISTRATIONS)
    return <span className="audit__plates">{plates.join(", ")}</span>;
  return (
    <details className="audit__more">
      <summary>
        {plates.slice(0, SHOWN_REGISTRATIONS).join(", ")} and{" "}
        {count(plates.length - SHOWN_REGISTRATIONS)} more
      </summary>
      <p className="audit__plates">{plates.join(", ")}</p>
    </details>
  );
}

export function AuditTable({ events }: { events: AuditEventAnswer[] }) {
  return (
    <table className="data-table audit">
      <caption className="visually-hidden">Audit events, newest first</caption>
      <thead>
        <tr>
          <th scope="col">Time (UK)</th>
          <th scope="col">User</th>
          <th scope="col">Action</th>
          <th scope="col">Registrations</th>
          <th scope="col">Outcome</th>
          <th scope="col">Request ID</th>
          <th scope="col">Client address</th>
        </tr>
      </thead>
      <tbody>
        {events.map((event) => {
          const detail = detailWords(event);
          return (
            <tr key={event.id}>
              <td data-label="Time (UK)">
                <time dateTime={event.at}>{auditTime(event.at)}</time>
              </td>
              <td data-label="User">
                {event.userEmail ?? event.userId ?? (
                  <span className="hint">No user</span>
                )}
              </td>
              <td data-label="Action">
                {ACTION_WORDS[event.action]}
                {detail && <span className="audit__detail">{detail}</span>}
                {event.count !== undefined && (
                  <span className="audit__detail">
                    {count(event.count)}{" "}
                    {event.count === 1 ? "attempt" : "attempts"}
                    {event.lastAt && `, the last at ${auditTime(event.lastAt)}`}
                  </span>
                )}
              </td>
              <td data-label="Registrations">
                <Registrations registrations={event.registrations} />
              </td>
              <td data-label="Outcome">{outcomeWords(event.outcome)}</td>
              <td data-label="Request ID">
                {event.requestId ? <code>{event.requestId}</code> : "–"}
                {event.correlationId && (
                  <span className="audit__detail">
                    Client’s id: <code>{event.correlationId}</code>
                  </span>
                )}
              </td>
              <td data-label="Client address">{event.clientAddress ?? "–"}</td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
