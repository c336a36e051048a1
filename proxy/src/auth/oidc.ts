import * as client from "openid-client";
import { AUTH_PATHS } from "@vics/shared";
import type { ProxyStore, User } from "../store/proxy-store.ts";
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

export type OidcRefusal =
  | "failed"
  | "email-not-verified"
  | "no-account"
  | "disabled"
  | "linked-elsewhere";

export class OidcRefusedError extends Error {
  readonly reason: OidcRefusal;
  constructor(reason: OidcRefusal, message: string) {
    super(message);
    this.name = "OidcRefusedError";
    this.reason = reason;
  }
}

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
   * sign-in from start): the user it signs in and the id token, or an OidcRefusedError that
   * says why not.
   */
  async finish(
    search: string,
    cookie: string | undefined,
    now: number,
  ): Promise<{
    user: User;
    idToken: string | null;
    created: boolean;
    returnTo: string;
  }> {
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
    const resolved = await this.resolveUser({
      issuer: claims.iss,
      subject: claims.sub,
      email: typeof info.email === "string" ? info.email : undefined,
      emailVerified: info.email_verified === true,
      name: typeof info.name === "string" ? info.name : "",
      now,
    });
    return {
      ...resolved,
      idToken: tokens.id_token ?? null,
      returnTo: login.returnTo,
    };
  }

  /** Who the identity is: linked before, an invited user linked now, or new by domain. */
  private async resolveUser(identity: {
    issuer: string;
    subject: string;
    email: string | undefined;
    emailVerified: boolean;
    name: string;
    now: number;
  }): Promise<{ user: User; created: boolean }> {
    const { issuer, subject, email, emailVerified, name, now } = identity;
    const linked = await this.store.findUserByOidc(issuer, subject);
    if (linked) {
      if (linked.disabledAt) throw disabled();
      return { user: linked, created: false };
    }
    if (!email || !emailVerified)
      throw new OidcRefusedError(
        "email-not-verified",
        "Your identity provider did not confirm your email address, so VICS cannot tell who you are. Ask your IT team, or an admin of VICS for an invitation.",
      );
    const invited = await this.store.findUserByEmail(email);
    if (invited) {
      if (invited.disabledAt) throw disabled();
      if (invited.oidcSubject !== null)
        throw new OidcRefusedError(
          "linked-elsewhere",
          `The VICS account for ${email} is linked to another sign-in. Ask an admin of VICS.`,
        );
      const user = await this.store.updateUser(invited.id, {
        oidc: { issuer, subject },
        ...(invited.name === "" && name && { name }),
      });
      return { user: user!, created: false };
    }
    const domain = email.slice(email.lastIndexOf("@") + 1).toLowerCase();
    if (!this.settings.allowedDomains.includes(domain))
      throw new OidcRefusedError(
        "no-account",
        `There is no VICS account for ${email}. Ask an admin of VICS to invite you.`,
      );
    const user = await this.store.createUser(
      { email, name, role: "staff", oidc: { issuer, subject } },
      new Date(now),
    );
    return { user, created: true };
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

const disabled = () =>
  new OidcRefusedError(
    "disabled",
    "Your VICS account has been disabled. Ask an admin of VICS to enable it.",
  );
