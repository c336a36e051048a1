// Shows any failed check as words and a way forward: retry, wait, fix the registration, or call an admin.
import { useId } from "react";
import { useSessionUser } from "../lib/session-user.ts";
import { BusyButton } from "./busy-button.tsx";
import { describeError } from "./describe-error.ts";
import { LookalikeSuggestions } from "./lookalike-suggestions.tsx";
import { RateLimitNotice } from "./rate-limit-notice.tsx";
import { objectKey } from "./object-key.ts";

export interface ErrorPanelProps {
  error: unknown;
  onRetry: () => void;
  /** The normalised registration being checked, for the wording. */
  registration?: string;
  /** True while the retry is in flight. */
  retrying?: boolean;
}

export function ErrorPanel({
  error,
  onRetry,
  registration,
  retrying = false,
}: ErrorPanelProps) {
  const headingId = useId();
  const role = useSessionUser()?.role;
  const description = describeError(error, registration, role);

  return (
    <section
      className={`error-panel error-panel--${description.kind}`}
      aria-labelledby={headingId}
    >
      <div role="alert">
        <h2 id={headingId} className="heading-m error-panel__title">
          {description.title}
        </h2>
        <p className="error-panel__message">{description.message}</p>
      </div>
      {description.suggestions && (
        <LookalikeSuggestions suggestions={description.suggestions} />
      )}
      {description.kind === "rate-limited" ? (
        <RateLimitNotice
          // A new 429 restarts the countdown from its own Retry-After.
          key={objectKey(error)}
          waitSeconds={description.waitSeconds ?? 1}
          onRetry={onRetry}
          retrying={retrying}
        />
      ) : (
        description.retryable && (
          <BusyButton
            busy={retrying}
            busyLabel="Trying again…"
            onClick={onRetry}
          >
            Try again
          </BusyButton>
        )
      )}
      {description.requestId && (
        <p className="error-panel__reference">
          Reference: <code>{description.requestId}</code>
        </p>
      )}
    </section>
  );
}
