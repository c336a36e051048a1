// "Download refused rows": an import's reject file as VICS keeps it, fetched then saved.
import { BusyButton } from "../../../components/busy-button.tsx";
import { fetchRejectsCsv, rejectsFileName } from "../api/data-api.ts";
import { useDownload } from "../lib/use-download.ts";

interface RejectsDownloadProps {
  importId: number;
  /** The id of the element naming the import's file, which the button is described by. */
  fileId: string;
}

export function RejectsDownload({ importId, fileId }: RejectsDownloadProps) {
  const { busy, problem, download } = useDownload("The refused rows");
  return (
    <>
      <BusyButton
        secondary
        busy={busy}
        busyLabel="Preparing…"
        onClick={() =>
          void download(rejectsFileName(importId), () =>
            fetchRejectsCsv(importId),
          )
        }
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
