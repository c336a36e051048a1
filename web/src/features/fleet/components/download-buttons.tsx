// The "Download CSV" and "Download Excel (.xlsx)" buttons of a download, and any others after
// them. Disabled by aria-disabled while a file is being made, so keyboard focus stays put.
import type { ReactNode } from "react";
import type { ExportFormat } from "../lib/export/export-protocol.ts";

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
