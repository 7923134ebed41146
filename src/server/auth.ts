import { createHmac, timingSafeEqual } from "node:crypto";
import type { Context, MiddlewareHandler } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import { HttpError } from "../api/errors";

export const SESSION_COOKIE = "studio_session";

/** Optional shared-token sign-in: an HttpOnly cookie for the browser, `Authorization: Bearer` for scripts. */
export class StudioAuth {
  private readonly sessionValue: string | null;

  constructor(
    private readonly token: string | null,
    private readonly secureCookie: boolean,
  ) {
    // The cookie holds a value derived from the token, never the token itself.
    this.sessionValue = token ? createHmac("sha256", token).update("media-studio-session-v1").digest("base64url") : null;
  }

  get required(): boolean {
    return this.token !== null;
  }

  isAuthenticated(c: Context): boolean {
    if (!this.token || !this.sessionValue) return true;
    const header = c.req.header("authorization") ?? "";
    if (header.startsWith("Bearer ") && safeEqual(header.slice(7).trim(), this.token)) return true;
    const cookie = getCookie(c, SESSION_COOKIE);
    return cookie !== undefined && safeEqual(cookie, this.sessionValue);
  }

  middleware(): MiddlewareHandler {
    return async (c, next) => {
      if (!this.isAuthenticated(c)) {
        throw new HttpError(401, "unauthorized", "Sign in to the studio first (or send Authorization: Bearer <STUDIO_TOKEN>).");
      }
      await next();
    };
  }

  /** Checks a sign-in attempt; on success sets the session cookie. */
  signIn(c: Context, token: unknown): boolean {
    if (!this.token || !this.sessionValue) return true;
    if (typeof token !== "string" || !safeEqual(token, this.token)) return false;
    setCookie(c, SESSION_COOKIE, this.sessionValue, {
      httpOnly: true,
      sameSite: "Strict",
      secure: this.secureCookie,
      path: "/",
      maxAge: 60 * 60 * 24 * 30,
    });
    return true;
  }

  signOut(c: Context): void {
    deleteCookie(c, SESSION_COOKIE, { path: "/" });
  }
}

function safeEqual(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
