// "Download CSV": every event the audit page's filters find, not only the page shown. The file
// is fetched and then saved, because the proxy answers /api only with the app's own header,
// which a plain link cannot send.
import { BusyButton } from "../../../components/busy-button.tsx";
import { useState } from "react";
import {
  AUDIT_CSV_NAME,
  csvWasCutOff,
  fetchAuditCsv,
} from "../api/audit-api.ts";
import type { AuditFilters } from "../lib/audit-filters.ts";
import { useDownload } from "../lib/use-download.ts";

export function AuditCsvDownload({ filters }: { filters: AuditFilters }) {
  const { busy, problem, download: save } = useDownload("The CSV");
  // A search that found more than the proxy's cap: the file ends with a row that says so.
  const [cutOff, setCutOff] = useState(false);
  const download = () =>
    save(AUDIT_CSV_NAME, async () => {
      setCutOff(false);
      const file = await fetchAuditCsv(filters);
      setCutOff(await csvWasCutOff(file));
      return file;
    });

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
      <p role="status" className="hint">
        {cutOff &&
          "The CSV was cut off: it holds only the newest events this search found. Narrow the dates or the filters to download the rest."}
      </p>
      {problem && (
        <p className="error-message" role="alert">
          {problem}
        </p>
      )}
    </div>
  );
}
