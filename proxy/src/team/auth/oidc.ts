import * as client from "openid-client";
import { AUTH_PATHS } from "@vics/shared";
import type { ProxyStore, User } from "../store/proxy-store.ts";
import {
  linkToOwner,
  OidcLinkRefusedError,
  OidcRefusedError,
  userForIdentity,
  type LinkedBy,
} from "./oidc-accounts.ts";
import {
  openPendingLogin,
  pendingLoginKey,
  sealPendingLogin,
} from "./oidc-login-cookie.ts";

export interface OidcSettings {
  /** The provider's issuer URL; its discovery document is read at start-up. */
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** The sign-in button's words, e.g. "Sign in with Microsoft". */
  label: string;
  /**
   * Email domains whose people get an account at their first sign-in (with a verified email),
   * with the lowest role. Empty: only invited users can sign in.
   */
  allowedDomains: readonly string[];
  /** http issuers: only for a provider on loopback (the tests' oidc-provider). */
  allowHttpIssuer?: boolean;
}

/** How long the provider's sign-in may take before its answer is refused. */
export const LOGIN_TTL_MS = 10 * 60_000;

/** A longer return path is dropped for "/": the whole login must fit in one cookie. */
const MAX_RETURN_TO = 1000;

export {
  OidcLinkRefusedError,
  OidcRefusedError,
  type OidcRefusal,
} from "./oidc-accounts.ts";

/** What the callback did: signed someone in, or linked the signed-in owner's account. */
export type OidcOutcome =
  | {
      kind: "sign-in";
      user: User;
      idToken: string | null;
      created: boolean;
      /** Set when this sign-in linked the identity to an existing account by its email. */
      linked: LinkedBy | null;
      returnTo: string;
    }
  | { kind: "link"; user: User; previous: string | null; returnTo: string };

/**
 * Sign-in through an OpenID Connect provider: the authorization code flow with PKCE, state
 * and nonce (openid-client). The identity is the pair issuer and subject; email and name come
 * from UserInfo. `redirect_uri` is built from PUBLIC_ORIGIN, never from a request.
 */
export class OidcSignIn {
  readonly label: string;
  private readonly config: client.Configuration;
  private readonly settings: OidcSettings;
  private readonly store: ProxyStore;
  private readonly publicOrigin: string;
  private readonly loginKey: Buffer;

  private constructor(
    config: client.Configuration,
    settings: OidcSettings,
    store: ProxyStore,
    publicOrigin: string,
  ) {
    this.config = config;
    this.settings = settings;
    this.store = store;
    this.publicOrigin = publicOrigin;
    this.label = settings.label;
    this.loginKey = pendingLoginKey(settings.clientSecret);
  }

  static async discover(
    settings: OidcSettings,
    store: ProxyStore,
    publicOrigin: string,
  ): Promise<OidcSignIn> {
    const config = await client.discovery(
      new URL(settings.issuer),
      settings.clientId,
      settings.clientSecret,
      undefined,
      settings.allowHttpIssuer
        ? { execute: [client.allowInsecureRequests] }
        : undefined,
    );
    return new OidcSignIn(config, settings, store, publicOrigin);
  }

  /** An OidcSignIn is an OidcProvider that has already answered (oidc-discovery.ts). */
  current(): OidcSignIn {
    return this;
  }

  get redirectUri(): string {
    return new URL(AUTH_PATHS.oidcCallback, this.publicOrigin).href;
  }

  /**
   * The provider's URL to send the browser to, and this sign-in sealed for the browser's
   * cookie (oidc-login-cookie.ts): nothing is stored.
   */
  async start(
    returnTo: string,
    now: number,
    /** The signed-in user's id, when they are linking their own account (not signing in). */
    linkTo?: string,
  ): Promise<{ url: URL; cookie: string }> {
    const codeVerifier = client.randomPKCECodeVerifier();
    const state = client.randomState();
    const nonce = client.randomNonce();
    const cookie = sealPendingLogin(
      {
        state,
        nonce,
        codeVerifier,
        returnTo: returnTo.length > MAX_RETURN_TO ? "/" : returnTo,
        expiresAt: now + LOGIN_TTL_MS,
        ...(linkTo !== undefined && { linkTo }),
      },
      this.loginKey,
    );
    const url = client.buildAuthorizationUrl(this.config, {
      redirect_uri: this.redirectUri,
      scope: "openid email profile",
      code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
      code_challenge_method: "S256",
      state,
      nonce,
    });
    return { url, cookie };
  }

  /**
   * The provider's answer at the callback (`search`: its query string, `cookie`: the sealed
   * sign-in from start, `signedIn`: the browser's signed-in user): who it signs in, or whose
   * account it links, or an OidcRefusedError that says why not.
   */
  async finish(
    search: string,
    cookie: string | undefined,
    now: number,
    signedIn?: User,
  ): Promise<OidcOutcome> {
    const login = openPendingLogin(cookie, this.loginKey, now);
    if (!login)
      throw new OidcRefusedError(
        "failed",
        "The sign-in took too long or was started elsewhere. Try again.",
      );
    const currentUrl = new URL(this.redirectUri);
    currentUrl.search = search;
    let tokens;
    try {
      tokens = await client.authorizationCodeGrant(this.config, currentUrl, {
        pkceCodeVerifier: login.codeVerifier,
        expectedState: login.state,
        expectedNonce: login.nonce,
        idTokenExpected: true,
      });
    } catch (error) {
      throw new OidcRefusedError(
        "failed",
        `The identity provider's answer was refused: ${(error as Error).message}`,
      );
    }
    const claims = tokens.claims()!;
    const info = await client.fetchUserInfo(
      this.config,
      tokens.access_token,
      claims.sub,
    );
    const identity = {
      issuer: claims.iss,
      subject: claims.sub,
      email: typeof info.email === "string" ? info.email : undefined,
      emailVerified: info.email_verified === true,
      name: typeof info.name === "string" ? info.name : "",
    };
    if (login.linkTo !== undefined) {
      // Only the browser whose owner asked, still signed in as them, completes a link.
      if (signedIn?.id !== login.linkTo)
        throw new OidcLinkRefusedError(
          "failed",
          "Sign in to VICS again, then link your organisation sign-in from your account page.",
        );
      const done = await linkToOwner(this.store, signedIn, identity);
      return { kind: "link", ...done, returnTo: login.returnTo };
    }
    const resolved = await userForIdentity(
      this.store,
      identity,
      this.settings.allowedDomains,
      now,
    );
    return {
      kind: "sign-in",
      ...resolved,
      idToken: tokens.id_token ?? null,
      returnTo: login.returnTo,
    };
  }

  /** The provider's sign-out page (RP-initiated logout), when it has one. */
  endSessionUrl(idToken: string | null, after: string): string | undefined {
    if (!this.config.serverMetadata().end_session_endpoint) return undefined;
    return client.buildEndSessionUrl(this.config, {
      post_logout_redirect_uri: after,
      ...(idToken && { id_token_hint: idToken }),
    }).href;
  }
}
