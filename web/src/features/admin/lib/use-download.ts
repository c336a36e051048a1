// A file the admin pages fetch and then save (a plain link cannot carry the header the proxy
// requires): busy while it comes, and the problem in words when it cannot.
import { useState } from "react";
import { downloadFile } from "../../../lib/download-file.ts";
import { useSessionUser } from "../../../lib/session-user.ts";
import { adminProblemWords } from "./admin-problems.ts";

/** `what`: the file in words, for the problem ("The CSV", "The refused rows"). */
export function useDownload(what: string) {
  const me = useSessionUser();
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string>();
  async function download(name: string, fetchFile: () => Promise<Blob>) {
    setBusy(true);
    setProblem(undefined);
    try {
      downloadFile(name, await fetchFile());
    } catch (error) {
      setProblem(
        `${what} could not be downloaded. ${adminProblemWords(error, me?.role)}`,
      );
    } finally {
      setBusy(false);
    }
  }
  return { busy, problem, download };
}
