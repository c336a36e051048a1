// Moves a test's router as a link, Back or Forward would, from outside the rendered tree: put
// `element` inside the router, then `await go("/path")` or `await go(-1)`.
import { useLayoutEffect } from "react";
import { act } from "@testing-library/react";
import { useNavigate, type NavigateFunction, type To } from "react-router";

function Navigator({ onRender }: { onRender: (n: NavigateFunction) => void }) {
  const navigate = useNavigate();
  useLayoutEffect(() => {
    onRender(navigate);
  }, [onRender, navigate]);
  return null;
}

/** Moves `navigate` to an address, or by a number of entries as Back and Forward do. */
export async function moveTo(
  navigate: NavigateFunction,
  to: To | number,
): Promise<void> {
  if (typeof to === "number") await navigate(to);
  else await navigate(to);
}

export function testNavigator() {
  let navigate: NavigateFunction = () => undefined;
  const keep = (next: NavigateFunction) => {
    navigate = next;
  };
  const go = (to: To | number) => act(() => moveTo(navigate, to));
  return { element: <Navigator onRender={keep} />, go };
}
