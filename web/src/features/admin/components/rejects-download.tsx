// "Download refused rows": an import's reject file as VICS keeps it, fetched then saved (a plain
// link cannot carry the header the proxy requires).
import { useState } from "react";
import { BusyButton } from "../../../components/busy-button.tsx";
import { downloadFile } from "../../../lib/download-file.ts";
import { useSessionUser } from "../../../lib/session-user.ts";
import { fetchRejectsCsv, rejectsFileName } from "../api/data-api.ts";
import { adminProblemWords } from "../lib/admin-problems.ts";

interface RejectsDownloadProps {
  importId: number;
  /** The id of the element naming the import's file, which the button is described by. */
  fileId: string;
}

export function RejectsDownload({ importId, fileId }: RejectsDownloadProps) {
  const me = useSessionUser();
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string>();

  async function download() {
    setBusy(true);
    setProblem(undefined);
    try {
      downloadFile(rejectsFileName(importId), await fetchRejectsCsv(importId));
    } catch (error) {
      setProblem(
        `The refused rows could not be downloaded. ${adminProblemWords(error, me?.role)}`,
      );
    } finally {
      setBusy(false);
    }
  }

  return (
    <>
      <BusyButton
        secondary
        busy={busy}
        busyLabel="Preparing…"
        onClick={() => void download()}
        describedBy={fileId}
      >
        Download refused rows
      </BusyButton>
      {problem && (
        <p className="error-message" role="alert">
          {problem}
        </p>
      )}
    </>
  );
}
