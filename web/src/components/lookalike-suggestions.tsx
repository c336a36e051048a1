// "Did you mean ...?" links to the registrations the service holds that differ only by O/0 and I/1.
import { Link } from "react-router";
import { formatRegistration } from "@vics/shared";

export function LookalikeSuggestions({
  suggestions,
}: {
  suggestions: string[];
}) {
  if (suggestions.length === 0) return null;
  return (
    <div className="lookalikes">
      <p className="lookalikes__question">Did you mean:</p>
      <ul className="lookalikes__list">
        {suggestions.map((suggestion) => (
          <li key={suggestion}>
            {/* "../X" relative to the path swaps the last segment: /vehicle/A -> /vehicle/X. */}
            <Link to={`../${encodeURIComponent(suggestion)}`} relative="path">
              {formatRegistration(suggestion)}
            </Link>
          </li>
        ))}
      </ul>
    </div>
  );
}
