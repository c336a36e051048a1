// A check's page: heading, registration form, the check for a valid registration in the URL,
// and recent checks beside it. The URL is the state, so every result can be shared.
import { useId, useState, type ReactNode } from "react";
import { useQueryClient, type QueryKey } from "@tanstack/react-query";
import {
  Navigate,
  useNavigate,
  useParams,
  useSearchParams,
} from "react-router";
import {
  formatRegistration,
  isCalendarDate,
  parseRegistration,
} from "@vics/shared";
import { formatDate, ukToday } from "../lib/dates.ts";
import { useNow } from "../lib/use-now.ts";
import { PageErrorContext } from "../lib/use-document-title.ts";
import { CheckDate } from "./check-date.tsx";
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
  /**
   * Offers "Check on a date": the day asked is the address's `?date=` (decision 041), handed
   * to the check; undefined means today.
   */
  onADate?: boolean;
  /** The check for a valid registration. */
  children: (
    registration: string,
    focus: FocusRequest | undefined,
    date: string | undefined,
  ) => ReactNode;
}

/** The address's date if it is a real day no later than today; else why not. */
function readDate(
  text: string | null,
  today: string,
): { date?: string; error?: string } {
  if (text === null) return {};
  if (!isCalendarDate(text))
    return { error: `"${text}" is not a date. Choose one from the calendar.` };
  if (text > today)
    return {
      error: `${formatDate(text)} is in the future: the date must be today, ${formatDate(today)}, or a day before it.`,
    };
  return { date: text };
}

export function CheckPage({
  title,
  heading,
  lead,
  submitLabel,
  pathFor,
  queryKeyFor,
  onADate = false,
  children,
}: CheckPageProps) {
  const { registration: param } = useParams();
  const [search] = useSearchParams();
  const today = ukToday(useNow());
  const asked = onADate ? readDate(search.get("date"), today) : {};
  const { date } = asked;
  // A dated check keeps its date for the next vehicle: an incident often involves several.
  const withDate = (path: string) =>
    date === undefined
      ? path
      : `${path}?${new URLSearchParams({ date }).toString()}`;
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
    return <Navigate replace to={withDate(pathFor(parsed.registration))} />;

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
      void navigate(withDate(pathFor(next)));
    }
  }

  function chooseDate(next: string | undefined) {
    const params = new URLSearchParams(search);
    if (next === undefined) params.delete("date");
    else params.set("date", next);
    const query = params.toString();
    // The dated answer takes focus when it is in, as a submitted check's does.
    setFocus((previous) => ({
      registration: registration ?? "",
      serial: (previous?.serial ?? 0) + 1,
    }));
    void navigate({ search: query === "" ? "" : `?${query}` });
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
          {onADate && (
            <CheckDate
              date={date}
              today={today}
              error={asked.error}
              onChoose={chooseDate}
            />
          )}
          {registration && children(registration, focus, date)}
        </div>
        <aside className="column-one-third" aria-label="Recent checks">
          <RecentChecks />
        </aside>
      </div>
    </PageErrorContext>
  );
}
