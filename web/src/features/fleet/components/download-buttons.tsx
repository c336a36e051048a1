// The "Download CSV" and "Download Excel (.xlsx)" buttons of a download, and any others after
// them, disabled by aria-disabled while a file is being made, so keyboard focus stays put; and
// the progress of the file being made, with Cancel.
import type { ReactNode } from "react";
import type { ExportFormat } from "../lib/export/export-protocol.ts";
import { FORMAT_WORDS, type Making } from "./use-export-download.ts";

export function DownloadButtons({
  making,
  onDownload,
  buttonRef,
  children,
}: {
  making: boolean;
  onDownload: (format: ExportFormat) => void;
  /** Each format's button, for focus to go back to it. */
  buttonRef?: (format: ExportFormat, element: HTMLButtonElement | null) => void;
  children?: ReactNode;
}) {
  const button = (format: ExportFormat, label: string) => (
    <button
      type="button"
      ref={buttonRef && ((element) => buttonRef(format, element))}
      className="button button--secondary"
      // aria-disabled, not disabled, so keyboard focus stays on the button.
      aria-disabled={making ? true : undefined}
      onClick={() => onDownload(format)}
    >
      {label}
    </button>
  );
  return (
    <div className="button-group">
      {button("csv", "Download CSV")}
      {button("xlsx", "Download Excel (.xlsx)")}
      {children}
    </div>
  );
}

/** How far the file being made is, in words and a bar, with Cancel. */
export function DownloadProgress({
  making,
  onCancel,
}: {
  making: Making;
  onCancel: () => void;
}) {
  const words = `Preparing ${FORMAT_WORDS[making.format]}`;
  return (
    <div className="export-controls__progress">
      <progress
        className="run-progress__bar"
        aria-label={words}
        max={100}
        value={making.percent}
      >
        {making.percent}%
      </progress>
      <p>
        {words}… {making.percent}%
      </p>
      <button
        type="button"
        className="button button--secondary"
        onClick={onCancel}
      >
        Cancel download
      </button>
    </div>
  );
}
