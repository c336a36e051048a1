// A full page load to another address (after sign-out: the provider's sign-out page, or the
// sign-in page with nothing of the last user left in memory). An object, so tests can replace
// it: jsdom does not navigate.
export const browserNavigation = {
  assign(url: string): void {
    window.location.assign(url);
  },
};
