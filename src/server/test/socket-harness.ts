/**
 * Helpers for the studio's real-socket tests (src/server/*.socket.test.ts): a studio listening on
 * 127.0.0.1 with a fresh data dir, fetch wrappers that keep the whole response, an SSE reader, and
 * bounded waits. Every request goes to 127.0.0.1 only.
 */
import { createServer } from "node:http";
import { mkdtemp, rm } from "node:fs/promises";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import v8 from "node:v8";
import vm from "node:vm";
import BetterSqlite3 from "better-sqlite3";
import { STUDIO_REQUEST_HEADER, type Generation, type GenerationPage } from "../../api/studio";
import { startStudio, type RunningStudio, type StudioOptions } from "../create-studio";
import { loadServerConfig } from "../env";

export interface SocketStudio extends RunningStudio {
  dataDir: string;
  /** Stops the studio and removes its data dir. Safe to call twice. */
  close: () => Promise<void>;
}

/** Starts the studio on 127.0.0.1:<free port> with a fresh data dir and `env` on top of quiet defaults. */
export async function startSocketStudio(env: Record<string, string> = {}, options: StudioOptions = {}): Promise<SocketStudio> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), "studio-socket-"));
  const config = loadServerConfig({ HOST: "127.0.0.1", PORT: "0", STUDIO_DATA_DIR: dataDir, LOG_LEVEL: "silent", ...env });
  const studio = await startStudio(config, { upstreamRetryDelaysMs: [50, 100], ...options });
  let closed = false;
  return {
    ...studio,
    dataDir,
    close: async () => {
      if (closed) return;
      closed = true;
      try {
        await studio.close();
      } finally {
        await rm(dataDir, { recursive: true, force: true });
      }
    },
  };
}

export interface FullResponse {
  status: number;
  headers: Headers;
  text: string;
  /** The body parsed as JSON, or undefined when it is not JSON. */
  json: unknown;
  ms: number;
}

export interface CallInit extends Omit<RequestInit, "body" | "headers"> {
  headers?: Record<string, string>;
  /** Sent as JSON (content-type set) unless it is a string or FormData. */
  body?: unknown;
}

/** fetch with the studio's CSRF header, reading the whole body; never throws for an HTTP status. */
export async function call(baseUrl: string, pathname: string, init: CallInit = {}): Promise<FullResponse> {
  const headers: Record<string, string> = { [STUDIO_REQUEST_HEADER]: "1", ...init.headers };
  let body: BodyInit | undefined;
  if (typeof init.body === "string" || init.body instanceof FormData) body = init.body;
  else if (init.body !== undefined) {
    body = JSON.stringify(init.body);
    headers["content-type"] ??= "application/json";
  }
  const started = performance.now();
  const response = await fetch(`${baseUrl}${pathname}`, { ...init, headers, body, signal: init.signal ?? AbortSignal.timeout(20_000) });
  const text = await response.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, text, json, ms: performance.now() - started };
}

export function errorCodeOf(response: FullResponse): string | undefined {
  const body = response.json as { error?: { code?: unknown } } | undefined;
  return typeof body?.error?.code === "string" ? body.error.code : undefined;
}

/** Calls `read` until `done` holds; fails after `timeoutMs` with the last value. */
export async function waitFor<T>(read: () => Promise<T> | T, done: (value: T) => boolean, timeoutMs = 15_000, intervalMs = 50): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: T | undefined;
  for (let round = 0; round < 100_000; round++) {
    last = await read();
    if (done(last)) return last;
    if (Date.now() > deadline) break;
    await sleep(intervalMs);
  }
  throw new Error(`Timed out after ${timeoutMs} ms; last value: ${JSON.stringify(last)?.slice(0, 2000)}`);
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** GET /api/studio/generations/:id as JSON. */
export async function getGeneration(baseUrl: string, id: string, headers: Record<string, string> = {}): Promise<Generation> {
  const response = await call(baseUrl, `/api/studio/generations/${encodeURIComponent(id)}`, { headers });
  if (response.status !== 200) throw new Error(`GET generation ${id}: HTTP ${response.status} ${response.text}`);
  return response.json as Generation;
}

export async function listGenerations(baseUrl: string, query = "", headers: Record<string, string> = {}): Promise<Generation[]> {
  const response = await call(baseUrl, `/api/studio/generations${query ? `?${query}` : ""}`, { headers });
  if (response.status !== 200) throw new Error(`GET generations: HTTP ${response.status} ${response.text}`);
  return (response.json as GenerationPage).items;
}

/** True once a generation is `success` and every output is mirrored (served from /media with a thumbnail). */
export function isMirrored(generation: Generation): boolean {
  return (
    generation.status === "success" &&
    generation.outputs.length > 0 &&
    generation.outputs.every((output) => output.url.startsWith("/media/") && output.thumbnailUrl !== null)
  );
}

/** The per-task webhook token, read straight from the ledger's SQLite file. */
export function webhookTokenOf(dataDir: string, generationId: string): string {
  const db = new BetterSqlite3(path.join(dataDir, "ledger.sqlite"), { readonly: true, fileMustExist: true });
  try {
    const row = db.prepare<[string], { webhook_token: string | null }>("SELECT webhook_token FROM generations WHERE id = ?").get(generationId);
    if (!row?.webhook_token) throw new Error(`Generation ${generationId} has no webhook token.`);
    return row.webhook_token;
  } finally {
    db.close();
  }
}

export interface SseEvent {
  event: string;
  data: string;
  id?: string;
}

export interface SseReader {
  events: SseEvent[];
  /** Everything received, as text. */
  raw: () => string;
  headers: Headers;
  status: number;
  close: () => Promise<void>;
}

/** Opens an SSE stream with fetch and collects its events in the background until close(). */
export async function openSse(url: string, headers: Record<string, string> = {}): Promise<SseReader> {
  const controller = new AbortController();
  const response = await fetch(url, { headers: { accept: "text/event-stream", ...headers }, signal: controller.signal });
  const events: SseEvent[] = [];
  let raw = "";
  let pending = "";
  const decoder = new TextDecoder();
  const reading = (async () => {
    if (!response.body) return;
    try {
      for await (const chunk of response.body) {
        const text = decoder.decode(chunk, { stream: true });
        raw += text;
        pending += text;
        let boundary = pending.indexOf("\n\n");
        while (boundary !== -1) {
          const frame = pending.slice(0, boundary);
          pending = pending.slice(boundary + 2);
          const event = parseSseFrame(frame);
          if (event) events.push(event);
          boundary = pending.indexOf("\n\n");
        }
      }
    } catch {
      // aborted by close()
    }
  })();
  return {
    events,
    raw: () => raw,
    headers: response.headers,
    status: response.status,
    close: async () => {
      controller.abort();
      await reading;
    },
  };
}

function parseSseFrame(frame: string): SseEvent | null {
  let event = "message";
  const data: string[] = [];
  let id: string | undefined;
  for (const line of frame.split("\n")) {
    if (line.startsWith(":")) continue;
    const colon = line.indexOf(":");
    const field = colon === -1 ? line : line.slice(0, colon);
    const value = colon === -1 ? "" : line.slice(colon + 1).replace(/^ /, "");
    if (field === "event") event = value;
    else if (field === "data") data.push(value);
    else if (field === "id") id = value;
  }
  if (data.length === 0) return null;
  return { event, data: data.join("\n"), id };
}

/** A port on 127.0.0.1 with nothing listening on it. */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

let collectGarbage: (() => void) | null = null;

/**
 * Runs `work` while forcing a full garbage collection every `everyMs` in this process (where the
 * studio under test runs too). Bugs that depend on an object being collected (a timeout signal,
 * a weakly held request) then show every time instead of once in a while.
 */
export async function underGcPressure<T>(work: () => Promise<T>, everyMs = 25): Promise<T> {
  if (!collectGarbage) {
    v8.setFlagsFromString("--expose-gc");
    collectGarbage = vm.runInNewContext("gc") as () => void;
  }
  const gc = collectGarbage;
  const timer = setInterval(() => gc(), everyMs);
  try {
    return await work();
  } finally {
    clearInterval(timer);
  }
}
