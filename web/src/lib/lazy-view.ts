// A view that loads on demand, with the answer it shows: the code of an insurance result or a
// compliance dashboard is fetched while the check is, so the first download stays small and
// the answer still appears whole, in one render, with nothing left to load.
import {
  createElement,
  useEffect,
  useState,
  type ComponentType,
  type ReactElement,
} from "react";

export interface LazyView<P extends object> {
  /** Starts loading (once; again after a failure) and resolves when loaded. */
  load(): Promise<void>;
  loaded(): boolean;
  /** Renders the view once loaded (see useLazyView), nothing before. */
  View: (props: P) => ReactElement | null;
}

export function lazyView<P extends object>(
  importView: () => Promise<ComponentType<P>>,
): LazyView<P> {
  let loaded: ComponentType<P> | undefined;
  let loading: Promise<void> | undefined;
  return {
    load() {
      loading ??= importView().then(
        (view) => {
          loaded = view;
        },
        (error: unknown) => {
          loading = undefined; // a reload of the page, or the next check, tries again
          throw error;
        },
      );
      return loading;
    },
    loaded: () => loaded !== undefined,
    View: (props: P) => (loaded ? createElement(loaded, props) : null),
  };
}

/**
 * Whether the view has loaded; loading starts with the component that asks. A view that cannot
 * load (the network went) is thrown to the route's error page, which says to reload.
 */
export function useLazyView<P extends object>(view: LazyView<P>): boolean {
  const [state, setState] = useState<{ ready: boolean; error?: unknown }>(
    () => ({ ready: view.loaded() }),
  );
  useEffect(() => {
    if (state.ready) return;
    let live = true;
    view.load().then(
      () => live && setState({ ready: true }),
      (error: unknown) => live && setState({ ready: false, error }),
    );
    return () => {
      live = false;
    };
  }, [view, state.ready]);
  if (state.error !== undefined) throw state.error;
  return state.ready;
}
