/**
 * A studio server built in process for route tests: createStudio on a fresh data dir, the embedded
 * sandbox provider with fast timings, a capturing logger, and `app.request` wrappers that send what
 * the studio's own web app sends (the x-studio-request header, a loopback Host).
 *
 * Nothing listens on a socket except the embedded sandbox; the reconciler is not started (call
 * `harness.studio.reconciler.tick()` or `harness.settleVideo(id)` to drive video tasks).
 */
import { existsSync } from "node:fs";
import { mkdtemp, readdir, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { expect } from "vitest";
import { errorBodySchema, type ErrorBody } from "../../api/errors";
import { isTerminalStatus } from "../../api/provider";
import { STUDIO_REQUEST_HEADER, type Generation } from "../../api/studio";
import type { SandboxConfig } from "../../sandbox/config";
import { createStudio } from "../create-studio";
import { loadServerConfig, type ServerConfig } from "../env";
import type { LogFields, Logger, LogLevel } from "../logger";

/** The Host header every harness request carries unless a test overrides it. */
export const TEST_HOST = "127.0.0.1:3000";
export const TEST_ORIGIN = `http://${TEST_HOST}`;

/** Sandbox timings that finish a small video task in well under two seconds. */
export const FAST_SANDBOX: Partial<SandboxConfig> = {
  pendingMs: 50,
  processingMs: 300,
  videoDurationSeconds: 1,
  webhookAttempts: 2,
  webhookRetryBaseMs: 50,
  webhookTimeoutMs: 1000,
};

/** A small video size for tests (the sandbox renders 640x360 by default). */
export const SMALL_VIDEO_SIZE = "128x72";

export interface LogEntry {
  level: Exclude<LogLevel, "silent">;
  message: string;
  fields: LogFields;
}

/** A Logger that keeps every entry in memory, for assertions. */
export function captureLogger(): { logger: Logger; entries: LogEntry[] } {
  const entries: LogEntry[] = [];
  const at = (level: LogEntry["level"]) => (message: string, fields: LogFields = {}) => {
    entries.push({ level, message, fields });
  };
  return { logger: { debug: at("debug"), info: at("info"), warn: at("warn"), error: at("error") }, entries };
}

export interface StudioHarnessOptions {
  /** Environment-style settings for loadServerConfig; STUDIO_DATA_DIR is the harness's unless given here. */
  env?: Record<string, string | undefined>;
  /** Use this data dir instead of a fresh one (e.g. to start a second studio on the same data); it is then not removed on close. */
  dataDir?: string;
  /** Overrides for the embedded sandbox, on top of FAST_SANDBOX. */
  sandbox?: Partial<SandboxConfig>;
  /** Waits between upstream GET retries (default: short ones). */
  upstreamRetryDelaysMs?: number[];
  /** A built web app to serve (default: none). */
  distDir?: string;
}

/** Header values; null or undefined removes a header the harness would otherwise send. */
export type TestHeaders = Record<string, string | null | undefined>;
export interface TestRequestInit extends Omit<RequestInit, "headers"> {
  headers?: TestHeaders;
}

export type StudioHarness = Awaited<ReturnType<typeof createStudioHarness>>;

/** Builds a studio (not listening) on a fresh temporary data dir. Call `close()` when done. */
export async function createStudioHarness(options: StudioHarnessOptions = {}) {
  const ownsDataDir = options.dataDir === undefined && options.env?.STUDIO_DATA_DIR === undefined;
  const dataDir = options.dataDir ?? options.env?.STUDIO_DATA_DIR ?? (await mkdtemp(path.join(os.tmpdir(), "studio-test-")));
  const config: ServerConfig = loadServerConfig({
    RECONCILE_INTERVAL_MS: "100",
    LOG_LEVEL: "silent",
    ...options.env,
    STUDIO_DATA_DIR: dataDir,
  });
  const { logger, entries: logs } = captureLogger();
  const studio = await createStudio(config, {
    logger,
    sandboxOverrides: { ...FAST_SANDBOX, ...options.sandbox },
    upstreamRetryDelaysMs: options.upstreamRetryDelaysMs ?? [20, 50],
    distDir: options.distDir,
  });
  const { app, deps } = studio;

  /** `app.request` with the studio web app's headers; absolute URLs (e.g. from a response) are reduced to their path. */
  const request = (target: string, init: TestRequestInit = {}): Promise<Response> => {
    const headers = new Headers();
    const merged: TestHeaders = { host: TEST_HOST, [STUDIO_REQUEST_HEADER]: "1", ...init.headers };
    for (const [name, value] of Object.entries(merged)) {
      if (value === null || value === undefined) headers.delete(name);
      else headers.set(name, value);
    }
    return Promise.resolve(app.request(toPath(target), { ...init, headers }));
  };

  let closed = false;
  const harness = {
    studio,
    app,
    deps,
    config,
    dataDir,
    logs,
    ledger: deps.ledger,
    request,
    get: (target: string, headers?: TestHeaders) => request(target, { method: "GET", headers }),
    postJson: (target: string, body: unknown, headers?: TestHeaders) =>
      request(target, {
        method: "POST",
        headers: { "content-type": "application/json", ...headers },
        body: typeof body === "string" ? body : JSON.stringify(body),
      }),
    postForm: (target: string, form: FormData, headers?: TestHeaders) => request(target, { method: "POST", headers, body: form }),
    putJson: (target: string, body: unknown, headers?: TestHeaders) =>
      request(target, {
        method: "PUT",
        headers: { "content-type": "application/json", ...headers },
        body: typeof body === "string" ? body : JSON.stringify(body),
      }),
    delete: (target: string, headers?: TestHeaders) => request(target, { method: "DELETE", headers }),

    /** Absolute path of something under the data dir. */
    pathIn: (...segments: string[]) => path.join(dataDir, ...segments),
    /** Files (recursively, relative to the data dir, forward slashes) under a folder of the data dir; [] when it does not exist. */
    listFiles: (folder: string) => listFilesUnder(dataDir, folder),
    /** Every generation in the ledger, newest first. */
    allGenerations: (): Generation[] => deps.ledger.listGenerations({ limit: 200 }).items,

    /** Drives a video generation with reconciler passes until it is failed, or success with its media mirrored. */
    settleVideo: async (generationId: string, timeoutMs = 20_000): Promise<Generation> =>
      waitFor(
        async () => {
          await studio.reconciler.tick();
          return deps.ledger.getGeneration(generationId);
        },
        (generation) =>
          generation !== null &&
          isTerminalStatus(generation.status) &&
          (generation.status === "failed" || generation.outputs.every((output) => output.url.startsWith("/media/") && output.thumbnailUrl)),
        timeoutMs,
      ).then((generation) => {
        if (!generation) throw new Error(`Generation ${generationId} disappeared.`);
        return generation;
      }),

    /** Stops the studio (reconciler, sandbox, ledger) and removes the data dir the harness made. */
    close: async () => {
      if (closed) return;
      closed = true;
      await studio.close();
      if (ownsDataDir) await rm(dataDir, { recursive: true, force: true });
    },
  };
  return harness;
}

/** A URL or path as `app.request` wants it: path + query. */
export function toPath(target: string): string {
  if (!/^[a-z][a-z\d+.-]*:\/\//i.test(target)) return target;
  const url = new URL(target);
  return `${url.pathname}${url.search}`;
}

async function listFilesUnder(root: string, folder: string): Promise<string[]> {
  const base = path.join(root, folder);
  if (!existsSync(base)) return [];
  const entries = await readdir(base, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)).split(path.sep).join("/"))
    .sort();
}

// ---- images and forms ----

export interface SolidImageOptions {
  width?: number;
  height?: number;
  colour?: { r: number; g: number; b: number };
}

export async function pngBytes({ width = 32, height = 32, colour = { r: 200, g: 40, b: 40 } }: SolidImageOptions = {}): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: colour } }).png().toBuffer();
}

export async function jpegBytes({ width = 32, height = 32, colour = { r: 40, g: 40, b: 200 } }: SolidImageOptions = {}): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: colour } }).jpeg().toBuffer();
}

/** A File for a multipart part (the type is only a label; the studio sniffs the bytes). */
export function fileOf(bytes: Uint8Array, name: string, type = "image/png"): File {
  return new File([new Uint8Array(bytes)], name, { type });
}

/** multipart/form-data: text fields, then one `image` part per file (or another part name). */
export function formOf(fields: Record<string, string>, files: File[] = [], fileField = "image"): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  for (const file of files) form.append(fileField, file, file.name);
  return form;
}

/** What PNG, JPEG, WebP and MP4 bytes start with. */
export function looksLikePng(bytes: Uint8Array): boolean {
  return Buffer.from(bytes.subarray(0, 8)).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
}
export function looksLikeWebp(bytes: Uint8Array): boolean {
  return Buffer.from(bytes.subarray(0, 4)).toString("latin1") === "RIFF" && Buffer.from(bytes.subarray(8, 12)).toString("latin1") === "WEBP";
}
export function looksLikeMp4(bytes: Uint8Array): boolean {
  return Buffer.from(bytes.subarray(4, 8)).toString("latin1") === "ftyp";
}

// ---- assertions and waiting ----

/** Asserts `{"error":{"code","message"}}` with this status and code; returns the body. */
export async function expectError(response: Response, status: number, code: string): Promise<ErrorBody> {
  const text = await response.text();
  expect({ status: response.status, body: text }).toMatchObject({ status });
  expect(response.headers.get("content-type") ?? "").toMatch(/^application\/json/);
  const body = errorBodySchema.parse(JSON.parse(text));
  expect(body.error.code).toBe(code);
  expect(body.error.message.trim().length).toBeGreaterThan(5);
  return body;
}

/** Calls `read` until `done` holds or the time runs out. */
export async function waitFor<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 20_000, intervalMs = 50): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`Timed out after ${timeoutMs} ms; last value: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
