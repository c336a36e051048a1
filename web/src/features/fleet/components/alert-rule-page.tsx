// "/fleets/:fleetId/alerts": where a saved fleet's alerts go. Which kinds and "ending"
// thresholds alert, to which email addresses (urgent kinds at once, the rest in the daily
// digest) and to which of the team's webhooks. In-app notifications go to everyone with the
// fleet role whatever the rule says.
import { useQuery } from "@tanstack/react-query";
import { Link, useParams } from "react-router";
import { DocumentTitle } from "../../../components/document-title.tsx";
import { ErrorPanel } from "../../../components/error-panel.tsx";
import { LoadingMessage } from "../../../components/loading-message.tsx";
import { StatusIcon } from "../../../components/status-icon.tsx";
import { alertRuleQueryOptions } from "../api/alert-rules-api.ts";
import { fleetPaths } from "../lib/fleet-paths.ts";
import { AlertRuleForm } from "./alert-rule-form.tsx";
import "../alert-rule.css";

export function AlertRulePage() {
  const { fleetId = "" } = useParams();
  const answer = useQuery(alertRuleQueryOptions(fleetId));

  if (answer.isPending)
    return <LoadingMessage>Opening the alert rule…</LoadingMessage>;
  if (answer.isError)
    return (
      <ErrorPanel
        error={answer.error}
        retrying={answer.isFetching}
        onRetry={() => void answer.refetch()}
      />
    );

  return (
    <div className="alert-rule">
      <DocumentTitle
        title={`Alert rule – ${answer.data.fleet.name} – Fleets`}
      />
      <p className="back-link">
        <Link to={fleetPaths.savedFleet(fleetId)}>
          {answer.data.fleet.name}
        </Link>
      </p>
      <h1 className="heading-l">
        <span className="heading-caption">Fleet {answer.data.fleet.name}</span>{" "}
        Alert rule
      </h1>
      <p className="lead">
        Which of this fleet’s alerts are sent by email and to the team’s
        webhooks, and to whom.
      </p>
      {!answer.data.emailOn && (
        <p className="inset-warning">
          <StatusIcon status="warning" />
          No mail server is set up yet: emails will wait until an admin sets one
          up.
        </p>
      )}
      <AlertRuleForm
        fleetId={fleetId}
        rule={answer.data.rule}
        webhooks={answer.data.webhooks}
      />
    </div>
  );
}
