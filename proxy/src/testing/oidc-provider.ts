// A real OpenID Connect provider (oidc-provider) on 127.0.0.1, for the tests of OIDC sign-in,
// with its development sign-in form: any login name is an account, whose claims are given here.
import { createServer, type RequestListener } from "node:http";
import type { AddressInfo } from "node:net";
import Provider from "oidc-provider";

export interface TestAccount {
  email?: string;
  email_verified?: boolean;
  name?: string;
}

export interface TestProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  close(): Promise<void>;
}

export async function startTestProvider(options: {
  redirectUri: string;
  postLogoutRedirectUri: string;
  accounts: Record<string, TestAccount>;
  /** A port chosen beforehand (a proxy told of the provider before it is up); default: any. */
  port?: number;
}): Promise<TestProvider> {
  const clientId = "vics";
  const clientSecret = "a-test-client-secret-of-some-length";
  // The issuer names the port, so the provider is made after its socket is bound.
  const route: { handler?: RequestListener } = {};
  const server = createServer((request, response) =>
    route.handler!(request, response),
  );
  await new Promise<void>((resolve) =>
    server.listen(options.port ?? 0, "127.0.0.1", resolve),
  );
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: [options.redirectUri],
        post_logout_redirect_uris: [options.postLogoutRedirectUri],
        grant_types: ["authorization_code"],
        response_types: ["code"],
      },
    ],
    async findAccount(_context, id) {
      return {
        accountId: id,
        async claims() {
          return { sub: id, ...options.accounts[id] };
        },
      };
    },
    claims: {
      openid: ["sub"],
      email: ["email", "email_verified"],
      profile: ["name"],
    },
    features: {
      devInteractions: { enabled: true },
      rpInitiatedLogout: { enabled: true },
    },
    pkce: { required: () => true },
    cookies: { keys: ["a-test-cookie-key"] },
  });
  // The provider warns about its development settings on stdout; the tests know.
  provider.on("server_error", (_context, error) => console.error(error));
  route.handler = provider.callback();
  return {
    issuer,
    clientId,
    clientSecret,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/**
 * A browser's part in the provider's sign-in, by plain HTTP: follows redirects with a cookie
 * jar per origin and submits each form it is shown, with `login` as the login name, until a
 * redirect leaves for `stopAt`. Returns that last URL.
 */
export async function signInAtProvider(
  start: URL,
  login: string,
  stopAt: string,
): Promise<URL> {
  const jar = new Map<string, Map<string, string>>();
  const cookiesFor = (url: URL) =>
    [...(jar.get(url.origin) ?? new Map()).entries()]
      .map(([k, v]) => `${k}=${v}`)
      .join("; ");
  const keep = (url: URL, response: Response) => {
    const cookies = jar.get(url.origin) ?? new Map<string, string>();
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(";");
      const at = pair!.indexOf("=");
      cookies.set(pair!.slice(0, at), pair!.slice(at + 1));
    }
    jar.set(url.origin, cookies);
  };
  let url = start;
  let init: RequestInit = {};
  for (let step = 0; step < 20; step++) {
    const response = await fetch(url, {
      ...init,
      redirect: "manual",
      headers: {
        ...(init.headers as Record<string, string>),
        Cookie: cookiesFor(url),
      },
    });
    keep(url, response);
    const location = response.headers.get("Location");
    if (location) {
      await response.body?.cancel();
      url = new URL(location, url);
      init = {};
      if (url.href.startsWith(stopAt)) return url;
      continue;
    }
    const html = await response.text();
    const form = /<form[^>]*action="([^"]+)"[^>]*>([\s\S]*?)<\/form>/.exec(
      html,
    );
    if (!form)
      throw new Error(
        `The provider showed no form (${response.status}): ${html.slice(0, 300)}`,
      );
    const fields = new URLSearchParams();
    for (const [tag] of form[2]!.matchAll(/<input[^>]*>/g)) {
      const name = /name="([^"]+)"/.exec(tag)?.[1];
      if (!name) continue;
      const value = /value="([^"]*)"/.exec(tag)?.[1] ?? "";
      fields.set(
        name,
        name === "login" ? login : name === "password" ? "any" : value,
      );
    }
    url = new URL(form[1]!.replaceAll("&amp;", "&"), url);
    init = {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: fields.toString(),
    };
  }
  throw new Error("The provider's sign-in did not end in 20 steps");
}
