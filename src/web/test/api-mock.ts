import { vi } from "vitest";

export interface RecordedRequest {
  method: string;
  url: URL;
  headers: Headers;
  body: BodyInit | null | undefined;
}

type Reply = Response | Promise<Response>;
type Handler = (request: RecordedRequest) => Reply;

export function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
}

export function errorReply(status: number, code: string, message: string): Response {
  return json({ error: { code, message } }, status);
}

/**
 * A per-test stand-in for the studio server: routes like "GET /api/studio/config" map to handlers;
 * every call is recorded. Unknown routes answer 404 with the studio's error body.
 */
export function mockApi(routes: Record<string, Handler | Response | object>) {
  const calls: RecordedRequest[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(typeof input === "string" ? input : input instanceof URL ? input.href : input.url, "http://studio.test");
    const request: RecordedRequest = {
      method: (init?.method ?? "GET").toUpperCase(),
      url,
      headers: new Headers(init?.headers),
      body: init?.body,
    };
    calls.push(request);
    const exact = routes[`${request.method} ${url.pathname}`];
    const pattern =
      exact ??
      Object.entries(routes).find(([key]) => {
        const [method, path] = key.split(" ");
        if (method !== request.method || !path?.includes(":")) return false;
        const regex = new RegExp(`^${path.replace(/:[^/]+/g, "[^/]+")}$`);
        return regex.test(url.pathname);
      })?.[1];
    if (pattern === undefined) return errorReply(404, "not_found", `No mock for ${request.method} ${url.pathname}`);
    if (typeof pattern === "function") return (pattern as Handler)(request);
    if (pattern instanceof Response) return pattern.clone();
    return json(pattern);
  });
  vi.stubGlobal("fetch", fetchMock);
  return { fetchMock, calls, callsTo: (method: string, path: string) => calls.filter((c) => c.method === method && c.url.pathname === path) };
}
