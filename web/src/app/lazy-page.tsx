// A page whose code loads when it is first shown: AppLayout's Suspense shows "Loading VICS…"
// on a first visit straight to it; a move from another page keeps that page on screen until
// the new one has loaded (the router moves inside a transition, the address at once).
// React.lazy keeps a failed load for good: after one (a network blip, a release under way),
// the error page's reset (another address) loads it again instead of failing for ever.
import { lazy, type ComponentType } from "react";

/** Each lazy page's way to start again after a failed load. */
const retries = new Set<() => void>();

/** Pages whose code failed to load will load it again when next shown. */
export function retryFailedPages(): void {
  for (const retry of retries) retry();
}

export function lazyPage<Module>(
  load: () => Promise<Module>,
  pick: (module: Module) => ComponentType,
): ComponentType {
  let failed = false;
  const attempt = () =>
    lazy(async () => {
      try {
        return { default: pick(await load()) };
      } catch (error) {
        failed = true;
        throw error;
      }
    });
  let Page = attempt();
  // Only from the error page's reset: while the failed page is being shown, React renders it
  // once more to find the error it throws, and must meet the same failed load.
  retries.add(() => {
    if (!failed) return;
    failed = false;
    Page = attempt();
  });
  return function LazyPage() {
    return <Page />;
  };
}
