// The browser URLs of each view, so shared components can link to a feature without importing it.
export const appPaths = {
  home: () => "/",
  insurance: (registration: string) =>
    `/vehicle/${encodeURIComponent(registration)}`,
  compliance: (registration?: string) =>
    registration === undefined
      ? "/compliance"
      : `/compliance/${encodeURIComponent(registration)}`,
  fleet: () => "/fleet",
} as const;
