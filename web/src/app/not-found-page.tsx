// Any URL the app does not know.
import { Link } from "react-router";
import { DocumentTitle } from "../components/document-title.tsx";

export function NotFoundPage() {
  return (
    <div className="grid-row">
      <div className="column-two-thirds">
        <DocumentTitle title="Page not found" />
        <h1 className="heading-l">Page not found</h1>
        <p>If you typed the web address, check it is correct.</p>
        <p>
          <Link to="/">Go to the insurance check</Link>
        </p>
      </div>
    </div>
  );
}
