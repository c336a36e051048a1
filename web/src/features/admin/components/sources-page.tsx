// "/admin/sources" (admins): the live registers VICS asks (docs/sources.md). Whether each is on
// and where it calls, its last success and last error in words an operator can act on, the UTC
// day's requests against its quota (the pacer's day, decision 060), how many stored facts are stale, and the DVSA client secret's
// warning 30 days before it expires. Asked again every 30 seconds while shown.
import type { RegisterStatus } from "@vics/shared/registers-admin";
import { DocumentTitle } from "../../../components/document-title.tsx";
import { StatusIcon } from "../../../components/status-icon.tsx";
import { formatDate, formatTimeOnDay, ukToday } from "../../../lib/dates.ts";
import { useNow } from "../../../lib/use-now.ts";
import { REGISTERS_REFRESH_MS, useRegisters } from "../api/registers-api.ts";
import {
  ERROR_KIND_WORDS,
  REGISTER_WORDS,
  requestsWords,
  resetWords,
  secretWarning,
  SOURCES_DOC,
  staleWords,
  turnOnWords,
} from "../lib/register-words.ts";
import "../admin.css";
import { QueryView } from "./query-view.tsx";

function Moment({ at, today }: { at: string; today: string }) {
  return <time dateTime={at}>{formatTimeOnDay(at, today)}</time>;
}

function OnOrOff({ register }: { register: RegisterStatus }) {
  // One line each: "Off: set …; see docs/sources.md in VICS's repository", "On: calls https://…".
  if (!register.on)
    return (
      <>
        <strong>Off</strong>: {turnOnWords(register.source)}
      </>
    );
  return (
    <>
      <strong>On</strong>
      {register.baseUrl && (
        <>
          : calls <code className="sources__url">{register.baseUrl}</code>
        </>
      )}
      {register.secretExpires && !register.secretExpiresSoon && (
        <span className="sources__detail hint">
          Client secret valid until {formatDate(register.secretExpires)}
        </span>
      )}
    </>
  );
}

function LastError({
  error,
  today,
}: {
  error: RegisterStatus["lastError"];
  today: string;
}) {
  if (!error) return <span className="hint">None</span>;
  return (
    <>
      <strong className="tag tag--failing">
        {ERROR_KIND_WORDS[error.kind]}
      </strong>
      <span className="sources__detail">{error.message}</span>
      <span className="sources__detail hint">
        At <Moment at={error.at} today={today} />
      </span>
    </>
  );
}

function RegistersTable({
  registers,
  now,
}: {
  registers: RegisterStatus[];
  now: Date;
}) {
  const today = ukToday(now);
  return (
    <table className="data-table sources">
      <caption className="visually-hidden">The live registers</caption>
      <thead>
        <tr>
          <th scope="col">Register</th>
          <th scope="col">On or off</th>
          <th scope="col">Last success (UK time)</th>
          <th scope="col">Last error</th>
          <th scope="col">Requests today (UTC)</th>
          <th scope="col">Stale facts</th>
        </tr>
      </thead>
      <tbody>
        {registers.map((register) => (
          <tr key={register.source}>
            <th scope="row">{REGISTER_WORDS[register.source].name}</th>
            <td data-label="On or off">
              <OnOrOff register={register} />
            </td>
            <td data-label="Last success">
              {register.lastSuccessAt ? (
                <Moment at={register.lastSuccessAt} today={today} />
              ) : (
                <span className="hint">Never</span>
              )}
            </td>
            <td data-label="Last error">
              <LastError error={register.lastError} today={today} />
            </td>
            <td data-label="Requests today (UTC)">
              {register.requestsToday ? (
                <>
                  {requestsWords(register.requestsToday)}
                  <span className="sources__detail hint">
                    {resetWords(now)}
                  </span>
                </>
              ) : (
                <span className="hint">Off</span>
              )}
            </td>
            <td data-label="Stale facts">
              {register.staleFacts === null ? (
                <span className="hint">Off</span>
              ) : (
                staleWords(register.staleFacts)
              )}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function SourcesPage() {
  const registers = useRegisters();
  const now = useNow();
  const today = ukToday(now);
  const { data } = registers;
  const warnings = (data?.registers ?? []).flatMap(
    (register) => secretWarning(register, today) ?? [],
  );
  return (
    <div className="admin-sources">
      <DocumentTitle title="Sources" />
      <h1 className="heading-l">Sources</h1>
      <p className="lead">
        The live registers VICS asks for road tax, MOT and vehicle details:
        whether each is on, how it last went, and what it has spent of the day’s
        quota (a UTC day, as the registers count it). This page asks again every{" "}
        {REGISTERS_REFRESH_MS / 1000} seconds.
      </p>
      {warnings.map((warning) => (
        <p className="inset-warning" key={warning}>
          <StatusIcon status="warning" />
          {warning}
        </p>
      ))}
      {data ? (
        <RegistersTable registers={data.registers} now={now} />
      ) : (
        <QueryView
          query={registers}
          loading="Loading the registers…"
          problemTitle="The registers cannot be shown"
        >
          {() => null}
        </QueryView>
      )}
      {/* Mounted empty from the start, so a screen reader announces the failure when it fills. */}
      <div role="status">
        {data && registers.isError && (
          <p className="hint">
            The last refresh failed: this is what VICS said at{" "}
            {formatTimeOnDay(
              new Date(registers.dataUpdatedAt).toISOString(),
              today,
            )}
            . It tries again in {REGISTERS_REFRESH_MS / 1000} seconds.
          </p>
        )}
      </div>
      <p>
        Stale facts are vehicles whose fact from that register is older than its
        freshness window, or was never fetched: a check of one asks the register
        again. {SOURCES_DOC} says how to turn each register on and what each
        error means.
      </p>
    </div>
  );
}
