import { setTimeout as delay } from "node:timers/promises";
import type { z } from "zod";
import { errorBodySchema, errorCodeSchema, HttpError, type ErrorStatus } from "../api/errors";
import {
  imageResultSchema,
  providerPaths,
  taskAcceptanceSchema,
  videoTaskRecordSchema,
  type ImageResult,
  type TaskAcceptance,
  type VideoTaskRecord,
} from "../api/provider";

export interface UpstreamOptions {
  baseUrl: string;
  apiKey: string;
  /** Whole-request limit for generation calls (an image is generated while the request waits). */
  timeoutMs: number;
  /** Whole-request limit for one status GET attempt. */
  statusTimeoutMs: number;
  /** Waits between GET retries; POSTs are never retried (they may bill twice). */
  retryDelaysMs?: number[];
}

/** A request body for the provider: JSON, or multipart built from files on disk (streamed, not buffered). */
export type UpstreamBody = { json: Record<string, unknown> } | { form: FormData };

const MAX_RESPONSE_BYTES = 5 * 1024 * 1024;
const PASS_THROUGH_STATUSES = new Set([400, 404, 409, 413, 415, 422, 429]);

/** The provider's API as the studio server uses it. Every failure becomes an HttpError with a clear code. */
export class UpstreamClient {
  private readonly retryDelaysMs: number[];

  constructor(private readonly options: UpstreamOptions) {
    this.retryDelaysMs = options.retryDelaysMs ?? [250, 1000];
  }

  generateImage(body: UpstreamBody): Promise<ImageResult> {
    return this.call("POST", providerPaths.images, imageResultSchema, body, this.options.timeoutMs);
  }

  submitVideo(body: UpstreamBody): Promise<TaskAcceptance> {
    return this.call("POST", providerPaths.videos, taskAcceptanceSchema, body, this.options.timeoutMs);
  }

  async getVideo(taskId: string): Promise<VideoTaskRecord> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.call("GET", providerPaths.video(taskId), videoTaskRecordSchema, null, this.options.statusTimeoutMs);
      } catch (error) {
        const retryable = error instanceof HttpError && error.status >= 502;
        const wait = this.retryDelaysMs[attempt];
        if (!retryable || wait === undefined) throw error;
        await delay(wait);
      }
    }
  }

  private async call<Schema extends z.ZodType>(
    method: "GET" | "POST",
    path: string,
    schema: Schema,
    body: UpstreamBody | null,
    timeoutMs: number,
  ): Promise<z.infer<Schema>> {
    // Built here, never copied from a client request: only these headers reach the provider.
    const headers: Record<string, string> = { authorization: `Bearer ${this.options.apiKey}`, accept: "application/json" };
    let payload: BodyInit | undefined;
    if (body && "json" in body) {
      headers["content-type"] = "application/json";
      payload = JSON.stringify(body.json);
    } else if (body) {
      payload = body.form;
    }

    let response: Response;
    const signal = AbortSignal.timeout(timeoutMs);
    try {
      const pending = fetch(`${this.options.baseUrl}${path}`, { method, headers, body: payload, signal, redirect: "error" });
      response = await untilAborted(pending, signal);
    } catch (error) {
      throw transportError(error, timeoutMs);
    }

    let text: string;
    try {
      text = await readText(response, MAX_RESPONSE_BYTES, signal);
    } catch (error) {
      if (error instanceof HttpError) throw error;
      throw transportError(error, timeoutMs);
    }

    if (!response.ok) throw statusError(response.status, text, this.options.apiKey);
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw new HttpError(502, "upstream_bad_response", "The generation service answered with something that is not JSON.");
    }
    const parsed = schema.safeParse(json);
    if (!parsed.success) {
      throw new HttpError(502, "upstream_bad_response", "The generation service's answer did not match its documented format.");
    }
    return parsed.data;
  }
}

function transportError(error: unknown, timeoutMs: number): HttpError {
  if (error instanceof Error && error.name === "TimeoutError") {
    return new HttpError(504, "upstream_timeout", `The generation service did not answer within ${Math.round(timeoutMs / 1000)} s.`);
  }
  return new HttpError(502, "upstream_unreachable", "The generation service can't be reached right now.");
}

/** The provider's error as the studio's; its message is passed on with the key cut out (some providers echo it). */
function statusError(status: number, text: string, apiKey: string): HttpError {
  const body = safeErrorBody(text);
  const message = body ? body.error.message.replaceAll(apiKey, "[redacted]") : "";
  if (status === 401 || status === 403) {
    return new HttpError(502, "upstream_error", "The generation service refused the studio's API key. Check UPSTREAM_API_KEY on the server.");
  }
  if (PASS_THROUGH_STATUSES.has(status) && body) {
    const code = errorCodeSchema.safeParse(body.error.code);
    return new HttpError(status as ErrorStatus, code.success ? code.data : "invalid_field", message);
  }
  const detail = body ? `: ${message}` : "";
  return new HttpError(502, "upstream_error", `The generation service failed (HTTP ${status})${detail}`);
}

function safeErrorBody(text: string) {
  try {
    const parsed = errorBodySchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/*
 * fetch's own signal cannot be trusted to end a stalled request: undici links it to the request
 * only through a WeakRef, so once the Request object is garbage-collected (typically while the body
 * is being read) the timeout fires into nothing and the call hangs until the provider closes the
 * socket. The two helpers below watch the signal themselves.
 */

/** The fetch's result, or a rejection with the signal's reason as soon as it aborts. */
function untilAborted(pending: Promise<Response>, signal: AbortSignal): Promise<Response> {
  return new Promise<Response>((resolve, reject) => {
    const onAbort = () => {
      reject(signal.reason);
      // A late answer must not hold a connection open.
      void pending.then((late) => late.body?.cancel()).catch(() => undefined);
    };
    if (signal.aborted) return onAbort();
    signal.addEventListener("abort", onAbort, { once: true });
    pending.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}

/** The whole body as text; cancels the body and rejects with the signal's reason when it aborts. */
async function readText(response: Response, maxBytes: number, signal: AbortSignal): Promise<string> {
  if (!response.body) return "";
  const reader = response.body.getReader();
  const onAbort = () => void reader.cancel(signal.reason).catch(() => undefined);
  signal.addEventListener("abort", onAbort, { once: true });
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for (;;) {
      signal.throwIfAborted();
      const { done, value } = await reader.read();
      signal.throwIfAborted();
      if (done) break;
      total += value.byteLength;
      if (total > maxBytes) {
        void reader.cancel().catch(() => undefined);
        throw new HttpError(502, "upstream_bad_response", "The generation service sent an answer far larger than expected.");
      }
      chunks.push(value);
    }
  } finally {
    signal.removeEventListener("abort", onAbort);
  }
  return Buffer.concat(chunks).toString("utf8");
}
