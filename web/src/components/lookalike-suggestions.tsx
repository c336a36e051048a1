// "Did you mean ...?" links for registrations that differ only by O/0 and I/1.
import { Link } from "react-router";
import { formatRegistration, lookalikeRegistrations } from "@vics/shared";

interface LookalikeSuggestionsProps {
  registration: string;
  /** Where a suggestion leads; by default the same view for the other registration. */
  hrefFor?: (registration: string) => string;
}

export function LookalikeSuggestions({
  registration,
  hrefFor,
}: LookalikeSuggestionsProps) {
  const suggestions = lookalikeRegistrations(registration);
  if (suggestions.length === 0) return null;
  return (
    <div className="lookalikes">
      <p className="lookalikes__question">Did you mean:</p>
      <ul className="lookalikes__list">
        {suggestions.map((suggestion) => (
          <li key={suggestion}>
            {/* "../X" relative to the path swaps the last segment: /vehicle/A -> /vehicle/X. */}
            <Link
              to={hrefFor ? hrefFor(suggestion) : `../${suggestion}`}
              relative="path"
            >
              {formatRegistration(suggestion)}
            </Link>
          </li>
        ))}
      </ul>
    </div>
  );
}
