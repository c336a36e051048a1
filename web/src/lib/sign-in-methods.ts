// GET /api/auth/methods: how this proxy lets people sign in. In lib, not a feature: the sign-in
// and account pages ask it, and so does the users page (whether to offer organisation sign-in).
import { queryOptions } from "@tanstack/react-query";
import { AUTH_PATHS, SignInMethodsSchema } from "@vics/shared";
import { apiGet } from "./api-client.ts";

export function methodsQueryOptions() {
  return queryOptions({
    queryKey: ["auth", "methods"],
    queryFn: ({ signal }) =>
      apiGet(AUTH_PATHS.methods, SignInMethodsSchema, { signal }),
    staleTime: Infinity,
  });
}
