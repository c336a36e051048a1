// "/admin/alerts" (admins): where the watched fleets' alerts go out. Email (whether a mail
// server is set up, the daily digest's time), the team's webhooks, and the delivery log with
// every attempt. Which alerts go to whom is each fleet's own rule, on the fleet's page.
import { DocumentTitle } from "../../../components/document-title.tsx";
import { AlertMailSection } from "./alert-mail-section.tsx";
import { DeliveryLogSection } from "./delivery-log-section.tsx";
import { WebhooksSection } from "./webhooks-section.tsx";
import "../admin.css";
import "../alerts.css";

export function AlertsPage() {
  return (
    <div className="admin-alerts">
      <DocumentTitle title="Alerts" />
      <h1 className="heading-l">Alerts</h1>
      <p className="lead">
        How the watched fleets’ alerts go out: by email and to the team’s
        webhooks, and every delivery with what happened to it. Which alerts go
        to whom is each fleet’s own alert rule, on the fleet’s page.
      </p>
      <AlertMailSection />
      <WebhooksSection />
      <DeliveryLogSection />
    </div>
  );
}
