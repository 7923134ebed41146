/**
 * The one way the web app talks to the studio server: same-origin fetch, the CSRF header on
 * every state-changing request, error bodies turned into ApiError, and every success body parsed
 * by the shared zod schema the caller passes (the schema is both the check and the type).
 */
import type { z } from "zod";
import { errorBodySchema } from "../../api/errors";
import { STUDIO_REQUEST_HEADER } from "../../api/studio";

export class ApiError extends Error {
  override readonly name = "ApiError";
  constructor(
    /** HTTP status, or 0 when the server could not be reached or answered nonsense. */
    readonly status: number,
    /** The server's stable snake_case code, or a client-side one (network_error, bad_response). */
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

type UnauthorizedListener = () => void;
const unauthorizedListeners = new Set<UnauthorizedListener>();

/** Called whenever any request answers 401 (the session gate uses it to return to sign-in). */
export function onUnauthorized(listener: UnauthorizedListener): () => void {
  unauthorizedListeners.add(listener);
  return () => unauthorizedListeners.delete(listener);
}

type Method = "GET" | "POST" | "PUT" | "DELETE";

export interface RequestOptions {
  method?: Method;
  /** Sent as JSON. */
  json?: unknown;
  /** Sent as multipart/form-data; the browser writes the Content-Type with its boundary. */
  form?: FormData;
  signal?: AbortSignal;
  /** Query parameters; undefined values are left out. */
  query?: Record<string, string | number | boolean | undefined>;
}

function buildUrl(path: string, query: RequestOptions["query"]): string {
  if (!query) return path;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== "") params.set(key, String(value));
  }
  const search = params.toString();
  return search ? `${path}?${search}` : path;
}

async function send(path: string, options: RequestOptions): Promise<Response> {
  const method = options.method ?? "GET";
  const headers = new Headers({ accept: "application/json" });
  let body: BodyInit | undefined;
  if (method !== "GET") headers.set(STUDIO_REQUEST_HEADER, "1");
  if (options.form) {
    body = options.form;
  } else if (options.json !== undefined) {
    headers.set("content-type", "application/json");
    body = JSON.stringify(options.json);
  }

  let response: Response;
  try {
    response = await fetch(buildUrl(path, options.query), {
      method,
      headers,
      body,
      signal: options.signal,
      credentials: "same-origin",
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === "AbortError") throw error;
    throw new ApiError(0, "network_error", "Can't reach the studio server. Check your connection and try again.");
  }

  if (!response.ok) {
    if (response.status === 401) for (const listener of unauthorizedListeners) listener();
    throw await toApiError(response);
  }
  return response;
}

async function toApiError(response: Response): Promise<ApiError> {
  let payload: unknown = null;
  try {
    payload = await response.json();
  } catch {
    // Not JSON (a proxy page, an empty body): fall through to a generic message.
  }
  const parsed = errorBodySchema.safeParse(payload);
  if (parsed.success) {
    return new ApiError(response.status, parsed.data.error.code, parsed.data.error.message);
  }
  return new ApiError(
    response.status,
    response.status >= 500 ? "internal_error" : "http_error",
    `The studio server answered ${response.status}${response.statusText ? ` ${response.statusText}` : ""}.`,
  );
}

/** Sends a request and parses the JSON answer with `schema`. */
export async function apiJson<S extends z.ZodType>(
  schema: S,
  path: string,
  options: RequestOptions = {},
): Promise<z.output<S>> {
  const response = await send(path, options);
  let payload: unknown;
  try {
    payload = await response.json();
  } catch {
    throw new ApiError(response.status, "bad_response", "The studio server sent a reply that isn't JSON.");
  }
  const parsed = schema.safeParse(payload);
  if (!parsed.success) {
    throw new ApiError(response.status, "bad_response", "The studio server sent a reply the studio doesn't understand.");
  }
  return parsed.data;
}

/** Sends a request whose answer has no body we need (204 and friends). */
export async function apiEmpty(path: string, options: RequestOptions = {}): Promise<void> {
  const response = await send(path, options);
  // Drain the body so the connection can be reused.
  await response.arrayBuffer().catch(() => undefined);
}
