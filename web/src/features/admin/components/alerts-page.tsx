// "/admin/alerts" (admins): where the watched fleets' alerts go out. Email (whether a mail
// server is set up, the daily digest's time), the team's webhooks, and the delivery log with
// every attempt. Which alerts go to whom is each fleet's own rule, on the fleet's page.
import { useQuery } from "@tanstack/react-query";
import { DocumentTitle } from "../../../components/document-title.tsx";
import { LoadingMessage } from "../../../components/loading-message.tsx";
import { useFirstAnswers } from "../lib/use-first-answers.ts";
import { alertMailQueryOptions } from "../api/alerts-api.ts";
import { webhooksQueryOptions } from "../api/webhooks-api.ts";
import { AlertMailSection } from "./alert-mail-section.tsx";
import { DeliveryLogSection } from "./delivery-log-section.tsx";
import { WebhooksSection } from "./webhooks-section.tsx";
import "../admin.css";
import "../alerts.css";

export function AlertsPage() {
  // The sections come together once the two above the delivery log have: one by one, each
  // pushed the next down as it arrived (the webhooks' list grows with the team's webhooks).
  // The sections read the same queries from the cache.
  const mail = useQuery(alertMailQueryOptions());
  const webhooks = useQuery(webhooksQueryOptions());
  const settled = useFirstAnswers([mail, webhooks]);
  return (
    <div className="admin-alerts">
      <DocumentTitle title="Alerts" />
      <h1 className="heading-l">Alerts</h1>
      <p className="lead">
        How the watched fleets’ alerts go out: by email and to the team’s
        webhooks, and every delivery with what happened to it. Which alerts go
        to whom is each fleet’s own alert rule, on the fleet’s page.
      </p>
      {settled ? (
        <>
          <AlertMailSection />
          <WebhooksSection />
          <DeliveryLogSection />
        </>
      ) : (
        <LoadingMessage>Loading the alert settings…</LoadingMessage>
      )}
    </div>
  );
}
