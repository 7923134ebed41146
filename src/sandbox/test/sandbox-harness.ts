import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { createSandboxApp } from "../app";
import { defaultSandboxConfig, type SandboxConfig } from "../config";
import { renderVideo } from "../render-video";
import { TaskManager } from "../tasks";

export const SANDBOX_KEY = "test-key";
export const AUTH = { authorization: `Bearer ${SANDBOX_KEY}` };
export const IN_PROCESS_ORIGIN = "http://sandbox.test";

/** Fast timings so a video task finishes in about a second. */
export async function fastConfig(overrides: Partial<SandboxConfig> = {}): Promise<SandboxConfig> {
  return {
    ...defaultSandboxConfig,
    apiKeys: [SANDBOX_KEY],
    mediaDir: await mkdtemp(path.join(os.tmpdir(), "sandbox-test-")),
    pendingMs: 50,
    processingMs: 150,
    videoDurationSeconds: 1,
    webhookAttempts: 3,
    webhookRetryBaseMs: 50,
    webhookTimeoutMs: 1000,
    ...overrides,
  };
}

export interface LogLine {
  message: string;
  fields?: Record<string, unknown>;
}

/** The sandbox app in process (driven with app.request), with its own media dir. */
export async function inProcessSandbox(overrides: Partial<SandboxConfig> = {}) {
  const config = await fastConfig(overrides);
  const logs: LogLine[] = [];
  const log = (message: string, fields?: Record<string, unknown>) => logs.push({ message, fields });
  const fileUrl = (name: string) => `${IN_PROCESS_ORIGIN}/files/${name}`;
  const tasks = new TaskManager(config, { renderVideo, fileUrl, log });
  await tasks.resume();
  const app = createSandboxApp({ config, tasks, fileUrl, log });
  return {
    app,
    config,
    tasks,
    logs,
    /** Fetches a URL the sandbox returned, through the in-process app. */
    fetchFile: (url: string) => app.request(url.replace(IN_PROCESS_ORIGIN, "")),
    close: async () => {
      await tasks.close();
      await rm(config.mediaDir, { recursive: true, force: true });
    },
  };
}

export async function solidPng(colour: { r: number; g: number; b: number }, width = 64, height = 64): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: colour } }).png().toBuffer();
}

export async function meanColour(image: Uint8Array): Promise<{ r: number; g: number; b: number }> {
  const { channels } = await sharp(image).stats();
  return { r: channels[0]?.mean ?? 0, g: channels[1]?.mean ?? 0, b: channels[2]?.mean ?? 0 };
}

/** Calls `read` until `done` holds or the time runs out. */
export async function waitFor<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 20_000, intervalMs = 50): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`Timed out waiting; last value: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

export function jsonRequest(body: unknown, headers: Record<string, string> = AUTH): RequestInit {
  return { method: "POST", headers: { ...headers, "content-type": "application/json" }, body: JSON.stringify(body) };
}

export function formRequest(form: FormData, headers: Record<string, string> = AUTH): RequestInit {
  return { method: "POST", headers, body: form };
}
