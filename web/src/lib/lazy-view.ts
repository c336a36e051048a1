// A view that loads on demand, with the answer it shows: the code of an insurance result or a
// compliance dashboard is fetched while the check is, so the first download stays small and
// the answer still appears whole, in one render, with nothing left to load.
import { useEffect, useState, type ComponentType } from "react";

export interface LazyView<P> {
  /** Starts loading (once; again after a failure) and resolves with the view. */
  load(): Promise<ComponentType<P>>;
  /** The view, once loaded. */
  current(): ComponentType<P> | undefined;
}

export function lazyView<P>(
  importView: () => Promise<ComponentType<P>>,
): LazyView<P> {
  let loaded: ComponentType<P> | undefined;
  let loading: Promise<ComponentType<P>> | undefined;
  return {
    load() {
      loading ??= importView().then(
        (view) => (loaded = view),
        (error: unknown) => {
          loading = undefined; // a reload of the page, or the next check, tries again
          throw error;
        },
      );
      return loading;
    },
    current: () => loaded,
  };
}

/**
 * The view once it has loaded, undefined until then; loading starts with the component that
 * asks. A view that cannot load (the network went) is thrown to the route's error page, which
 * says to reload.
 */
export function useLazyView<P>(
  view: LazyView<P>,
): ComponentType<P> | undefined {
  const [state, setState] = useState<{
    view?: ComponentType<P>;
    error?: unknown;
  }>(() => ({ view: view.current() }));
  useEffect(() => {
    if (state.view) return;
    let live = true;
    view.load().then(
      (loaded) => live && setState({ view: loaded }),
      (error: unknown) => live && setState({ error }),
    );
    return () => {
      live = false;
    };
  }, [view, state.view]);
  if (state.error !== undefined) throw state.error;
  return state.view;
}
