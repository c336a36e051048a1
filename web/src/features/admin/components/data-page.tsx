// "/admin/data" (admins): where VICS's answers come from. How fresh each source is, since when
// VICS holds data, and every import of the operator's files with its counts and refused rows.
// Imports themselves run on the command line (docs/import.md): an operator's scheduled job.
import { useQuery } from "@tanstack/react-query";
import type { DataSources, ImportEntry } from "@vics/shared/data-admin";
import { DocumentTitle } from "../../../components/document-title.tsx";
import { StatusIcon } from "../../../components/status-icon.tsx";
import { formatDate, formatDateTime } from "../../../lib/dates.ts";
import { useNow } from "../../../lib/use-now.ts";
import {
  dataSourcesQueryOptions,
  importsQueryOptions,
} from "../api/data-api.ts";
import {
  ageWords,
  countWords,
  isStale,
  KIND_WORDS,
  OUTCOME_WORDS,
  SOURCE_ROWS,
  STALE_AFTER_DAYS,
  syntheticWords,
} from "../lib/data-words.ts";
import { RechecksSection } from "./rechecks-section.tsx";
import { RejectsDownload } from "./rejects-download.tsx";
import "../admin.css";
import { LoadingMessage } from "../../../components/loading-message.tsx";
import { useFirstAnswers } from "../lib/use-first-answers.ts";
import { QueryView } from "./query-view.tsx";

function SourcesTable({ sources }: { sources: DataSources }) {
  const now = useNow();
  const synthetic = syntheticWords(sources);
  return (
    <>
      {synthetic && (
        <p className="inset-warning">
          <StatusIcon status="warning" />
          {synthetic}
        </p>
      )}
      <table className="data-table data-sources">
        <caption className="visually-hidden">
          How fresh each source's data is
        </caption>
        <thead>
          <tr>
            <th scope="col">Source</th>
            <th scope="col">Data as of (UK time)</th>
            <th scope="col">Age</th>
          </tr>
        </thead>
        <tbody>
          {SOURCE_ROWS.map(({ source, label }) => {
            const at = sources.dataAsOf[source];
            const stale = at !== undefined && isStale(at, now);
            return (
              <tr key={source}>
                <th scope="row">{label}</th>
                <td>
                  {at === undefined ? (
                    <span className="hint">No data yet</span>
                  ) : (
                    <time dateTime={at}>{formatDateTime(at)}</time>
                  )}
                </td>
                <td>
                  {at !== undefined && ageWords(at, now)}
                  {stale && (
                    <strong className="tag data-sources__stale">
                      Older than {STALE_AFTER_DAYS} days
                    </strong>
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      <p>
        {sources.since
          ? `VICS has held data since ${formatDateTime(sources.since)}.`
          : "VICS holds no data yet."}{" "}
        {sources.historyFrom &&
          `Its records cover days from ${formatDate(sources.historyFrom)}: a check on a date before that is refused.`}
      </p>
    </>
  );
}

function ImportsTable({ imports }: { imports: ImportEntry[] }) {
  if (imports.length === 0)
    return (
      <p>
        No files have been imported into this database. An operator imports them
        with <code>scripts/import</code>.
      </p>
    );
  return (
    <table className="data-table data-imports">
      <caption className="visually-hidden">Imports, newest first</caption>
      <thead>
        <tr>
          <th scope="col">Finished (UK)</th>
          <th scope="col">File</th>
          <th scope="col">Outcome</th>
          <th scope="col">Rows</th>
          <th scope="col">Data as of</th>
          <th scope="col">Run by</th>
          <th scope="col">Refused rows</th>
        </tr>
      </thead>
      <tbody>
        {imports.map((entry) => (
          <tr key={entry.id}>
            <td>
              <time dateTime={entry.finishedAt}>
                {formatDateTime(entry.finishedAt)}
              </time>
            </td>
            <td>
              <span
                className="data-imports__file"
                id={`import-${entry.id}-file`}
              >
                {entry.fileName}
              </span>
              <span className="hint">
                {KIND_WORDS[entry.kind]}, {entry.mode}, import {entry.id}
              </span>
            </td>
            <td>
              {OUTCOME_WORDS[entry.outcome]}
              {entry.message && (
                <span className="hint data-imports__message">
                  {entry.message}
                </span>
              )}
            </td>
            <td>{countWords(entry)}</td>
            <td>
              {entry.dataAsOf ? (
                <time dateTime={entry.dataAsOf}>
                  {formatDateTime(entry.dataAsOf)}
                </time>
              ) : (
                <span className="hint">Nothing applied</span>
              )}
            </td>
            <td>{entry.runBy}</td>
            <td>
              {entry.counts.rejected > 0 ? (
                <RejectsDownload
                  importId={entry.id}
                  fileId={`import-${entry.id}-file`}
                />
              ) : (
                <span className="hint">None</span>
              )}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function DataPage() {
  const sources = useQuery(dataSourcesQueryOptions());
  const imports = useQuery(importsQueryOptions());
  // Below the lead, the page comes at once when both have come (or failed): one by one, the
  // sources' table pushed the imports down, and the imports (up to 50) the re-checks.
  const settled = useFirstAnswers([sources, imports]);
  return (
    <div className="admin-data">
      <DocumentTitle title="Data" />
      <h1 className="heading-l">Data</h1>
      <p className="lead">
        Where VICS’s answers come from: how fresh each source is, and the
        imports that loaded them.
      </p>
      {settled ? (
        <>
          <h2 className="heading-m">Sources</h2>
          <QueryView
            query={sources}
            loading="Loading the sources…"
            problemTitle="The sources cannot be shown"
          >
            {(data) => <SourcesTable sources={data} />}
          </QueryView>
          <h2 className="heading-m">Imports</h2>
          <p>
            The last 50 imports, newest first. Refused rows download as a CSV
            that opens in Excel: the line in the file, the column, the value and
            why.
          </p>
          <QueryView
            query={imports}
            loading="Loading the imports…"
            problemTitle="The imports cannot be shown"
          >
            {(data) => <ImportsTable imports={data.imports} />}
          </QueryView>
          <RechecksSection />
        </>
      ) : (
        <LoadingMessage>Loading where the answers come from…</LoadingMessage>
      )}
    </div>
  );
}
