// A check's page: heading, registration form, the check for a valid registration in the URL,
// and recent checks beside it. The URL is the state, so every result can be shared.
import type { ReactNode } from "react";
import { useQueryClient, type QueryKey } from "@tanstack/react-query";
import { Navigate, useNavigate, useParams } from "react-router";
import { formatRegistration, parseRegistration } from "@vics/shared";
import { DocumentTitle } from "./document-title.tsx";
import { RecentChecks } from "./recent-checks.tsx";
import { RegistrationForm } from "./registration-form.tsx";

interface CheckPageProps {
  /** The tab title before a vehicle is checked: "Insurance check". */
  title: string;
  heading: string;
  lead: string;
  submitLabel: string;
  /** The shareable URL of a registration's result. */
  pathFor: (registration: string) => string;
  /** The query to make again when the vehicle on show is submitted again. */
  queryKeyFor: (registration: string) => QueryKey;
  /** The check for a valid registration. */
  children: (registration: string) => ReactNode;
}

export function CheckPage({
  title,
  heading,
  lead,
  submitLabel,
  pathFor,
  queryKeyFor,
  children,
}: CheckPageProps) {
  const { registration: param } = useParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const parsed = param === undefined ? undefined : parseRegistration(param);

  // "/vehicle/ab12-cde" shows the same vehicle at its canonical, shareable URL.
  if (parsed?.ok && parsed.registration !== param)
    return <Navigate replace to={pathFor(parsed.registration)} />;

  const registration = parsed?.ok ? parsed.registration : undefined;

  function handleSubmit(next: string) {
    if (next === registration) {
      // Same vehicle again: the staff member wants a fresh answer.
      void queryClient.refetchQueries({ queryKey: queryKeyFor(next) });
    } else {
      void navigate(pathFor(next));
    }
  }

  return (
    <div className="grid-row">
      <div className="column-two-thirds">
        {!registration && (
          <DocumentTitle title={parsed ? `Error: ${title}` : title} />
        )}
        <div className="check-intro">
          <h1 className="heading-l">{heading}</h1>
          <p className="lead">{lead}</p>
        </div>
        <RegistrationForm
          submitLabel={submitLabel}
          onSubmit={handleSubmit}
          defaultValue={registration ? formatRegistration(registration) : param}
          initialError={parsed && !parsed.ok ? parsed.message : undefined}
        />
        {registration && children(registration)}
      </div>
      <aside className="column-one-third" aria-label="Recent checks">
        <RecentChecks />
      </aside>
    </div>
  );
}
