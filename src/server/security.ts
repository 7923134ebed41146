import type { MiddlewareHandler } from "hono";
import { HttpError } from "../api/errors";
import { STUDIO_REQUEST_HEADER } from "../api/studio";
import { isLoopback } from "./env";

/**
 * DNS-rebinding defence: a studio bound to loopback answers only to loopback host names (and the
 * PUBLIC_URL host). One bound to the network is protected by its token instead.
 */
export function hostCheck(bindHost: string, publicUrl: string | null): MiddlewareHandler {
  if (!isLoopback(bindHost)) return async (_c, next) => next();
  const allowed = new Set(["localhost", "127.0.0.1", "[::1]", bindHost]);
  if (publicUrl) allowed.add(new URL(publicUrl).hostname);
  return async (c, next) => {
    const hostname = hostnameOf(c.req.header("host") ?? "");
    if (!allowed.has(hostname)) throw new HttpError(403, "forbidden", `This studio does not answer to the host name "${hostname}".`);
    await next();
  };
}

const UNSAFE_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/**
 * CSRF defence for state-changing requests. Scripts authenticate with an Authorization header,
 * which a foreign page cannot send without a CORS preflight this server never grants. Browsers must
 * send the custom header (which also forces a preflight) and, when they send Origin, our own.
 */
export function csrfGuard(): MiddlewareHandler {
  return async (c, next) => {
    if (!UNSAFE_METHODS.has(c.req.method) || c.req.header("authorization")) return next();
    if (c.req.header("sec-fetch-site") === "cross-site") {
      throw new HttpError(403, "forbidden", "Requests from other sites are not accepted.");
    }
    const origin = c.req.header("origin");
    if (origin && origin !== "null" && hostnameWithPort(origin) !== (c.req.header("host") ?? "").toLowerCase()) {
      throw new HttpError(403, "forbidden", "Requests from other sites are not accepted.");
    }
    if (!c.req.header(STUDIO_REQUEST_HEADER)) {
      throw new HttpError(403, "forbidden", `State-changing requests must carry the ${STUDIO_REQUEST_HEADER} header.`);
    }
    await next();
  };
}

function hostnameOf(hostHeader: string): string {
  const lower = hostHeader.toLowerCase();
  if (lower.startsWith("[")) return lower.slice(0, lower.indexOf("]") + 1);
  return lower.split(":")[0] ?? "";
}

function hostnameWithPort(origin: string): string {
  try {
    return new URL(origin).host.toLowerCase();
  } catch {
    return "";
  }
}
