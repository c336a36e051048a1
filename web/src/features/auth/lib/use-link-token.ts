// The one-time link's token for its page: kept by the route before the page loaded (the
// address bar no longer has it), or read from the router's address.
import { useLayoutEffect, useState } from "react";
import { useLocation } from "react-router";
import { linkToken, removeHashFromAddressBar } from "./link-token.ts";

export function useLinkToken(): string | undefined {
  const { pathname, hash } = useLocation();
  const [token] = useState(() => linkToken(pathname, hash));
  useLayoutEffect(removeHashFromAddressBar, []);
  return token;
}
