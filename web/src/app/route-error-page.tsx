// Shown when a view fails to render: words and a way forward instead of a blank page.
import { useEffect } from "react";
import { Link } from "react-router";
import { DocumentTitle } from "../components/document-title.tsx";

export function RouteErrorPage({ error }: { error: unknown }) {
  useEffect(() => {
    // Keep the detail for whoever opens the developer tools; staff see words only.
    console.warn("VICS could not show this page", error);
  }, [error]);
  return (
    // As in the app's layout: main spans the page, the width container sits inside it.
    <main className="main" id="main-content" tabIndex={-1}>
      <div className="width-container">
        <DocumentTitle title="Sorry, there is a problem" />
        <h1 className="heading-l">Sorry, there is a problem with VICS</h1>
        <p>Reload the page to try again.</p>
        <p>
          <Link to="/" reloadDocument>
            Go to the insurance check
          </Link>
        </p>
      </div>
    </main>
  );
}
