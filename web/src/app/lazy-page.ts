// A page whose code loads when it is first shown: AppLayout's Suspense shows "Loading VICS…"
// on a first visit straight to it; a move from another page keeps that page on screen until
// the new one has loaded (the router moves inside a transition).
import { lazy, type ComponentType } from "react";

export function lazyPage<Module>(
  load: () => Promise<Module>,
  pick: (module: Module) => ComponentType,
) {
  return lazy(async () => ({ default: pick(await load()) }));
}
