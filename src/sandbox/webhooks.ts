import { setTimeout as delay } from "node:timers/promises";
import type { TaskResult } from "../api/provider";

export interface WebhookDeliveryOptions {
  attempts: number;
  retryBaseMs: number;
  timeoutMs: number;
  /** Aborting stops further attempts (used when the sandbox shuts down). */
  signal: AbortSignal;
  log: (message: string, fields?: Record<string, unknown>) => void;
}

export type WebhookOutcome = { delivered: true; attempts: number } | { delivered: false; attempts: number; lastError: string };

/**
 * POSTs a task result to the receiver, retrying with exponential back-off on network errors,
 * time-outs and non-2xx answers. Never throws: a failing receiver must not disturb the sandbox.
 */
export async function deliverWebhook(url: string, payload: TaskResult, options: WebhookDeliveryOptions): Promise<WebhookOutcome> {
  let lastError = "not attempted";
  for (let attempt = 1; attempt <= options.attempts; attempt++) {
    if (options.signal.aborted) break;
    try {
      const status = await postOnce(url, payload, options.timeoutMs, options.signal);
      if (status >= 200 && status < 300) return { delivered: true, attempts: attempt };
      lastError = `HTTP ${status}`;
    } catch (error) {
      lastError = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    }
    if (attempt < options.attempts) await delay(options.retryBaseMs * 2 ** (attempt - 1), undefined, { signal: options.signal }).catch(() => undefined);
  }
  options.log("webhook delivery gave up", { url: redactUrl(url), taskId: payload.id, attempts: options.attempts, lastError });
  return { delivered: false, attempts: options.attempts, lastError };
}

/**
 * One POST, bounded by a timer of its own: fetch's signal alone can miss a receiver that accepts
 * the connection and never answers (undici holds the request's signal weakly).
 */
async function postOnce(url: string, payload: TaskResult, timeoutMs: number, shutdown: AbortSignal): Promise<number> {
  const controller = new AbortController();
  const abort = () => controller.abort(new Error(`no answer within ${timeoutMs} ms`));
  const timer = setTimeout(abort, timeoutMs);
  shutdown.addEventListener("abort", abort, { once: true });
  const stopped = new Promise<never>((_, reject) => {
    controller.signal.addEventListener("abort", () => reject(controller.signal.reason), { once: true });
  });
  try {
    const pending = fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", "user-agent": "media-studio-sandbox" },
      body: JSON.stringify(payload),
      signal: controller.signal,
    });
    pending.catch(() => undefined);
    const response = await Promise.race([pending, stopped]);
    void response.body?.cancel().catch(() => undefined);
    return response.status;
  } finally {
    clearTimeout(timer);
    shutdown.removeEventListener("abort", abort);
  }
}

/** Webhook paths can hold secrets (per-task tokens); logs keep only the origin. */
function redactUrl(url: string): string {
  try {
    return `${new URL(url).origin}/…`;
  } catch {
    return "(invalid url)";
  }
}
