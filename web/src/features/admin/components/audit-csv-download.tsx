// "Download CSV": every event the audit page's filters find, not only the page shown. The file
// is fetched and then saved, because the proxy answers /api only with the app's own header,
// which a plain link cannot send.
import { useState } from "react";
import { BusyButton } from "../../../components/busy-button.tsx";
import { downloadFile } from "../../../lib/download-file.ts";
import { useSessionUser } from "../../../lib/session-user.ts";
import { AUDIT_CSV_NAME, fetchAuditCsv } from "../api/audit-api.ts";
import { adminProblemWords } from "../lib/admin-problems.ts";
import type { AuditFilters } from "../lib/audit-filters.ts";

export function AuditCsvDownload({ filters }: { filters: AuditFilters }) {
  const me = useSessionUser();
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string>();

  async function download() {
    setBusy(true);
    setProblem(undefined);
    try {
      downloadFile(AUDIT_CSV_NAME, await fetchAuditCsv(filters));
    } catch (error) {
      setProblem(
        `The CSV could not be downloaded. ${adminProblemWords(error, me?.role)}`,
      );
    } finally {
      setBusy(false);
    }
  }

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
