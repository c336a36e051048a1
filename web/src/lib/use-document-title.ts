// Sets the browser tab title for a view, GOV.UK style: "Page – VICS", and "Error: Page – VICS"
// whenever the page shows an error, wherever on the page the error is.
import { createContext, useContext, useLayoutEffect } from "react";

export const PRODUCT_NAME = "VICS";

const ERROR_PREFIX = "Error: ";

/** True inside a page that is showing an error (e.g. in its error summary). */
export const PageErrorContext = createContext(false);

export function useDocumentTitle(title: string): void {
  const pageError = useContext(PageErrorContext);
  const prefix =
    pageError && !title.startsWith(ERROR_PREFIX) ? ERROR_PREFIX : "";
  // A layout effect: the title changes in the same commit as the page it names, so nothing
  // (a screen reader, a test that has just found the new heading) sees the old title.
  useLayoutEffect(() => {
    document.title = title
      ? `${prefix}${title} – ${PRODUCT_NAME}`
      : PRODUCT_NAME;
  }, [prefix, title]);
}
