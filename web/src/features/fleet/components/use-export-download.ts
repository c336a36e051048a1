// A download of a file made off the page's thread (the results' export, a saved fleet's):
// which format is being made and how far, the step's words for a live region, the problem if
// it failed, and Cancel. Leaving the page ends a file still being made.
import { useEffect, useRef, useState } from "react";
import { downloadFile } from "../../../lib/download-file.ts";
import { EXPORT_FAILED } from "../lib/export/export-client.ts";
import type { ExportFormat } from "../lib/export/export-protocol.ts";

export const FORMAT_WORDS: Record<ExportFormat, string> = {
  csv: "CSV file",
  xlsx: "Excel file",
};

export interface Making {
  format: ExportFormat;
  percent: number;
}

/** Makes the file in `format`; `onProgress` takes the percent made so far. */
export type MakeFile = (
  format: ExportFormat,
  options: { signal: AbortSignal; onProgress: (percent: number) => void },
) => Promise<{ name: string; file: Blob }>;

export function useExportDownload(make: MakeFile) {
  const [making, setMaking] = useState<Making>();
  const [status, setStatus] = useState("");
  const [problem, setProblem] = useState<string>();
  const cancel = useRef<AbortController>(undefined);

  // Leaving the page ends a file still being made.
  useEffect(() => () => cancel.current?.abort(), []);

  async function download(format: ExportFormat) {
    if (making) return;
    const controller = new AbortController();
    cancel.current = controller;
    setMaking({ format, percent: 0 });
    setStatus(`Preparing ${FORMAT_WORDS[format]}…`);
    setProblem(undefined);
    try {
      const { name, file } = await make(format, {
        signal: controller.signal,
        onProgress: (percent) => setMaking({ format, percent }),
      });
      downloadFile(name, file);
      setStatus(`${FORMAT_WORDS[format]} ready.`);
    } catch {
      if (controller.signal.aborted) return;
      setStatus("");
      setProblem(EXPORT_FAILED);
    } finally {
      if (cancel.current === controller) setMaking(undefined);
    }
  }

  /** Each format's button, for focus to go back to after Cancel. */
  const buttons = useRef<
    Partial<Record<ExportFormat, HTMLButtonElement | null>>
  >({});
  const buttonRef = (
    format: ExportFormat,
    element: HTMLButtonElement | null,
  ) => {
    buttons.current[format] = element;
  };

  /**
   * Cancels the file being made. The Cancel button goes: keyboard users carry on from the
   * format's button they pressed.
   */
  function stop() {
    if (!making) return;
    cancel.current?.abort();
    setMaking(undefined);
    setStatus("Download cancelled. No file was saved.");
    buttons.current[making.format]?.focus();
  }

  return { making, status, problem, download, stop, buttonRef };
}
