// "Download a template": a CSV with the registration column and the kind of columns we keep.
import { downloadFile } from "../../../lib/download-file.ts";
import { TEMPLATE_FILE_NAME, templateCsv } from "../lib/parse/template.ts";

export function TemplateLink() {
  return (
    <button
      type="button"
      className="link-button"
      onClick={() =>
        downloadFile(
          TEMPLATE_FILE_NAME,
          new Blob([templateCsv()], { type: "text/csv;charset=utf-8" }),
        )
      }
    >
      Download a template (CSV)
    </button>
  );
}
