// The visible "Checking AB12 CDE…" while a check is in flight (the announcement is the caller's).
export function LoadingMessage({ children }: { children: string }) {
  return (
    <p className="loading-message">
      <span className="loading-message__spinner" aria-hidden="true" />
      {children}
    </p>
  );
}
