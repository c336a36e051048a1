// Sets the tab title from wherever a view decides it, as a component that renders nothing.
import { useDocumentTitle } from "../lib/use-document-title.ts";

export function DocumentTitle({ title }: { title: string }) {
  useDocumentTitle(title);
  return null;
}
