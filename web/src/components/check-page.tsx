// A check's page: heading, registration form, the check for a valid registration in the URL,
// and recent checks beside it. The URL is the state, so every result can be shared.
import { useId, useState, type ReactNode } from "react";
import { useQueryClient, type QueryKey } from "@tanstack/react-query";
import { Navigate, useNavigate, useParams } from "react-router";
import { formatRegistration, parseRegistration } from "@vics/shared";
import { PageErrorContext } from "../lib/use-document-title.ts";
import { DocumentTitle } from "./document-title.tsx";
import { ErrorSummary } from "./error-summary.tsx";
import { RecentChecks } from "./recent-checks.tsx";
import { RegistrationForm } from "./registration-form.tsx";

/** Asks the check on show to take focus once its answer is in: one per submitted check. */
export interface FocusRequest {
  registration: string;
  serial: number;
}

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
  children: (
    registration: string,
    focus: FocusRequest | undefined,
  ) => ReactNode;
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
  const inputId = `${useId()}-registration`;
  const parsed = param === undefined ? undefined : parseRegistration(param);
  const [typedError, setTypedError] = useState<{
    message: string;
    attempt: number;
  }>();
  const [focus, setFocus] = useState<FocusRequest>();

  // A new address (a link, the back button, a check) starts with nothing typed wrong.
  const [typedFor, setTypedFor] = useState(param);
  if (typedFor !== param) {
    setTypedFor(param);
    setTypedError(undefined);
  }

  // "/vehicle/ab12-cde" shows the same vehicle at its canonical, shareable URL.
  if (parsed?.ok && parsed.registration !== param)
    return <Navigate replace to={pathFor(parsed.registration)} />;

  const registration = parsed?.ok ? parsed.registration : undefined;
  const error =
    typedError?.message ?? (parsed && !parsed.ok ? parsed.message : undefined);

  function handleSubmit(next: string) {
    setTypedError(undefined);
    setFocus((previous) => ({
      registration: next,
      serial: (previous?.serial ?? 0) + 1,
    }));
    if (next === registration) {
      // Same vehicle again: the staff member wants a fresh answer.
      void queryClient.refetchQueries({ queryKey: queryKeyFor(next) });
    } else {
      void navigate(pathFor(next));
    }
  }

  function handleInvalid(message: string) {
    setTypedError((previous) => ({
      message,
      attempt: (previous?.attempt ?? 0) + 1,
    }));
  }

  return (
    <PageErrorContext value={error !== undefined}>
      <div className="grid-row">
        <div className="column-two-thirds">
          {!registration && <DocumentTitle title={title} />}
          {error && (
            <ErrorSummary
              errors={[{ fieldId: inputId, message: error }]}
              attempt={typedError?.attempt ?? 0}
            />
          )}
          <div className="check-intro">
            <h1 className="heading-l">{heading}</h1>
            <p className="lead">{lead}</p>
          </div>
          <RegistrationForm
            inputId={inputId}
            submitLabel={submitLabel}
            onSubmit={handleSubmit}
            onInvalid={handleInvalid}
            defaultValue={
              registration ? formatRegistration(registration) : param
            }
            error={error}
          />
          {registration && children(registration, focus)}
        </div>
        <aside className="column-one-third" aria-label="Recent checks">
          <RecentChecks />
        </aside>
      </div>
    </PageErrorContext>
  );
}
