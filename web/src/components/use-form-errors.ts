// A form's errors for its error summary and fields: each failed attempt counts, so the summary
// takes focus again even when the words are the same.
import { useState } from "react";
import type { FieldError } from "./error-summary.tsx";

export interface FormErrors {
  errors: FieldError[];
  attempt: number;
  show: (errors: FieldError[]) => void;
  clear: () => void;
  /** The message on one field, if it is in error. */
  errorFor: (fieldId: string) => string | undefined;
}

export function useFormErrors(): FormErrors {
  const [state, setState] = useState<{ errors: FieldError[]; attempt: number }>(
    { errors: [], attempt: 0 },
  );
  return {
    errors: state.errors,
    attempt: state.attempt,
    show: (errors) =>
      setState((previous) => ({ errors, attempt: previous.attempt + 1 })),
    clear: () => setState((previous) => ({ ...previous, errors: [] })),
    errorFor: (fieldId) =>
      state.errors.find((error) => error.fieldId === fieldId)?.message,
  };
}

/** One message a field, in the form's order (`order`, the fields' ids): for the summary. */
export function firstErrorEach(
  order: readonly string[],
  errors: readonly FieldError[],
): FieldError[] {
  return order.flatMap((fieldId) =>
    errors.filter((error) => error.fieldId === fieldId).slice(0, 1),
  );
}
