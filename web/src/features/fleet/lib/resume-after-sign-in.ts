// A run whose user went to sign in again from its page goes on by itself when they are back:
// at once when they signed in on this page (run-registry.ts), and after a page load (signing in
// through the organisation's provider leaves the page) by this note in the tab's storage.
const KEY = "vics:fleet-resume-after-sign-in";

export function markResumeAfterSignIn(runId: string): void {
  try {
    window.sessionStorage.setItem(KEY, runId);
  } catch {
    // Storage blocked: the page offers "Resume checking" instead.
  }
}

/** Whether the run was waiting for its user to sign in again; the note is used up. */
export function takeResumeAfterSignIn(runId: string): boolean {
  try {
    if (window.sessionStorage.getItem(KEY) !== runId) return false;
    window.sessionStorage.removeItem(KEY);
    return true;
  } catch {
    return false;
  }
}
