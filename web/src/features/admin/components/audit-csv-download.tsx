// "Download CSV": every event the audit page's filters find, not only the page shown. The file
// is fetched and then saved, because the proxy answers /api only with the app's own header,
// which a plain link cannot send.
import { BusyButton } from "../../../components/busy-button.tsx";
import { AUDIT_CSV_NAME, fetchAuditCsv } from "../api/audit-api.ts";
import type { AuditFilters } from "../lib/audit-filters.ts";
import { useDownload } from "../lib/use-download.ts";

export function AuditCsvDownload({ filters }: { filters: AuditFilters }) {
  const { busy, problem, download: save } = useDownload("The CSV");
  const download = () => save(AUDIT_CSV_NAME, () => fetchAuditCsv(filters));

  return (
    <div className="audit__csv">
      <p>
        <BusyButton
          secondary
          busy={busy}
          busyLabel="Preparing the CSV…"
          onClick={() => void download()}
        >
          Download CSV
        </BusyButton>
        <span className="hint audit__csv-hint">
          {" "}
          Every event these filters find, not only this page.
        </span>
      </p>
      {problem && (
        <p className="error-message" role="alert">
          {problem}
        </p>
      )}
    </div>
  );
}
