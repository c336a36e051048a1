// Sets the browser tab title for a view, GOV.UK style: "Page – VICS".
import { useEffect } from "react";

export const PRODUCT_NAME = "VICS";

export function useDocumentTitle(title: string): void {
  useEffect(() => {
    document.title = title ? `${title} – ${PRODUCT_NAME}` : PRODUCT_NAME;
  }, [title]);
}
