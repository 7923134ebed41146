/**
 * The provider key never leaves the studio server: not in a response body or header of any route
 * (successes, every kind of error, upstream faults, the SSE stream, media, the SPA), not in a log
 * line, not on disk, not in the web app. Only the provider gets it, and the provider gets nothing
 * of the browser's own credentials.
 */
import { randomBytes } from "node:crypto";
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Generation } from "../api/studio";
import { startSandbox, type RunningSandbox } from "../sandbox/start-sandbox";
import { defaultSandboxConfig } from "../sandbox/config";
import { faultModes, startFaultUpstream, type FaultUpstream } from "./test/fault-upstream";
import {
  call,
  isMirrored,
  openSse,
  startSocketStudio,
  waitFor,
  webhookTokenOf,
  type CallInit,
  type FullResponse,
  type SocketStudio,
} from "./test/socket-harness";

const execFileAsync = promisify(execFile);

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const distDir = path.join(root, "dist");

/** Every form a leaked key could take in text. */
function leakForms(secret: string): string[] {
  return [secret, encodeURIComponent(secret), Buffer.from(secret).toString("base64"), Buffer.from(secret).toString("base64url")];
}

function findLeak(text: string, secret: string): string | null {
  return leakForms(secret).find((form) => text.includes(form)) ?? null;
}

/** Asserts no response (body or any header) carried the secret; names the offending request. */
function expectNoLeakInResponses(responses: Array<{ label: string; response: FullResponse }>, secret: string) {
  const leaks: string[] = [];
  for (const { label, response } of responses) {
    if (findLeak(response.text, secret)) leaks.push(`${label}: body`);
    for (const [name, value] of response.headers) {
      if (findLeak(`${name}: ${value}`, secret)) leaks.push(`${label}: header ${name}`);
    }
  }
  expect(leaks).toEqual([]);
}

async function filesUnder(directory: string): Promise<string[]> {
  const entries = await readdir(directory, { withFileTypes: true, recursive: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => path.join(entry.parentPath, entry.name));
}

async function filesContaining(directory: string, secret: string): Promise<string[]> {
  const hits: string[] = [];
  for (const file of await filesUnder(directory)) {
    const content = (await readFile(file)).toString("latin1");
    if (findLeak(content, secret)) hits.push(path.relative(root, file));
  }
  return hits;
}

/** Captures what the studio's real logger writes (it logs with console.log). */
function captureConsole() {
  const lines: string[] = [];
  const keep = (...args: unknown[]) => {
    lines.push(args.map((arg) => (typeof arg === "string" ? arg : JSON.stringify(arg))).join(" "));
  };
  const spies = [
    vi.spyOn(console, "log").mockImplementation(keep),
    vi.spyOn(console, "info").mockImplementation(keep),
    vi.spyOn(console, "warn").mockImplementation(keep),
    vi.spyOn(console, "error").mockImplementation(keep),
  ];
  return { lines, restore: () => spies.forEach((spy) => spy.mockRestore()) };
}

describe("the provider key (canary) against the fault upstream", () => {
  const canary = `canary-${randomBytes(18).toString("hex")}`;
  const studioToken = `studio-token-${randomBytes(12).toString("hex")}`;
  const browserCookie = `studio_session=not-a-real-session; tracking=cookie-${randomBytes(6).toString("hex")}`;
  let fault: FaultUpstream;
  let studio: SocketStudio;
  let logs: ReturnType<typeof captureConsole>;
  const responses: Array<{ label: string; response: FullResponse }> = [];

  /** A request as the signed-in browser/script sends it: studio token, cookies, CSRF header. */
  const send = async (label: string, pathname: string, init: CallInit = {}) => {
    const response = await call(studio.url, pathname, {
      ...init,
      headers: { authorization: `Bearer ${studioToken}`, cookie: browserCookie, ...init.headers },
    });
    responses.push({ label, response });
    return response;
  };

  beforeAll(async () => {
    logs = captureConsole();
    fault = await startFaultUpstream({ apiKey: canary, timeline: { pendingMs: 200, processingMs: 300 } });
    studio = await startSocketStudio(
      {
        UPSTREAM_BASE_URL: fault.baseUrl,
        UPSTREAM_API_KEY: canary,
        STUDIO_TOKEN: studioToken,
        UPSTREAM_TIMEOUT_MS: "1000",
        UPSTREAM_STATUS_TIMEOUT_MS: "500",
        RECONCILE_INTERVAL_MS: "200",
        LOG_LEVEL: "debug",
      },
      existsSync(path.join(distDir, "index.html")) ? { distDir } : {},
    );
  });

  afterAll(async () => {
    await studio?.close();
    await fault?.close();
    logs?.restore();
  });

  it("drives every kind of route without the key appearing anywhere a client or a log can see", async () => {
    const events = await openSse(`${studio.url}/api/studio/events`, { authorization: `Bearer ${studioToken}`, cookie: browserCookie });
    expect(events.status).toBe(200);

    // Plain pages and the studio's own API.
    await send("healthz", "/healthz");
    await send("spa index", "/");
    await send("spa deep link", "/gallery/some-id");
    await send("config", "/api/studio/config");
    await send("session", "/api/studio/session");
    await send("sign-in with a wrong token", "/api/studio/session", { method: "POST", body: { token: "wrong-token-123456" } });

    // Successful generations, both route families.
    fault.setMode("all", "ok");
    const image = await send("studio image", "/api/studio/images", { method: "POST", body: { prompt: "a canary in a mine", model: "m-image", aspect_ratio: "16:9" } });
    expect(image.status).toBe(201);
    const providerImage = await send("provider image", "/api/ai/images/generations", { method: "POST", body: { prompt: "another canary", model: "m-image" } });
    expect(providerImage.status).toBe(200);
    const video = await send("studio video", "/api/studio/videos", { method: "POST", body: { prompt: "a canary flying", model: "m-video" } });
    expect(video.status).toBe(202);
    const videoGeneration = video.json as Generation;
    const providerVideo = await send("provider video", "/api/ai/videos", { method: "POST", body: { prompt: "a canary singing", model: "m-video" } });
    expect(providerVideo.status).toBe(200);
    const taskId = (providerVideo.json as { id: string }).id;
    await send("status of a known task", `/api/ai/videos/${taskId}`);
    await send("status of an unknown task", "/api/ai/videos/99999999");
    await send("status with a malformed id", "/api/ai/videos/not-a-number");

    // The video finishes; its media is mirrored and served.
    const finished = await waitFor(
      () => send("generation poll", `/api/studio/generations/${videoGeneration.id}`).then((response) => response.json as Generation),
      isMirrored,
    );
    for (const output of [...finished.outputs, ...(image.json as Generation).outputs]) {
      for (const url of [output.url, output.thumbnailUrl, output.coverUrl]) {
        if (url?.startsWith("/media/")) expect((await send(`media ${url}`, url)).status).toBe(200);
      }
    }
    await send("status of a finished task", `/api/ai/videos/${finished.providerTaskId ?? ""}`);
    await send("history", "/api/studio/generations");
    await send("history filtered", "/api/studio/generations?kind=video&status=success&q=canary&limit=5");
    await send("history bad cursor", "/api/studio/generations?cursor=garbage");
    await send("favourite", `/api/studio/generations/${finished.id}/favourite`, { method: "PUT", body: { favourite: true } });
    await send("webhook, real token", `/api/studio/webhooks/${webhookTokenOf(studio.dataDir, videoGeneration.id)}`, {
      method: "POST",
      body: { id: finished.providerTaskId, object: "task_result", created: 1, status: "success", result: { images: [] }, error: null },
    });

    // Every kind of client error.
    await send("prompt too long", "/api/studio/images", { method: "POST", body: { prompt: "x".repeat(3001), model: "m" } });
    await send("missing model", "/api/ai/videos", { method: "POST", body: { prompt: "p" } });
    await send("not json", "/api/studio/images", { method: "POST", body: "{oops", headers: { "content-type": "application/json" } });
    await send("wrong content type", "/api/studio/images", { method: "POST", body: "prompt=x", headers: { "content-type": "text/plain" } });
    await send("unknown generation", "/api/studio/generations/does-not-exist");
    await send("unknown api route", "/api/studio/nothing-here");
    await send("unknown media", "/media/none/0.png");
    await send("webhook, unknown token", "/api/studio/webhooks/not-a-token", { method: "POST", body: {} });
    const anonymous = await call(studio.url, "/api/studio/generations", { headers: { cookie: browserCookie } });
    responses.push({ label: "no studio token", response: anonymous });
    expect(anonymous.status).toBe(401);
    const forged = await call(studio.url, "/api/studio/images", {
      method: "POST",
      body: { prompt: "p", model: "m" },
      headers: { "x-studio-request": "", origin: "http://evil.example" },
    });
    responses.push({ label: "cross-site post", response: forged });
    expect(forged.status).toBe(403);

    // Every upstream fault, on each provider endpoint.
    for (const mode of faultModes.filter((name) => name !== "ok")) {
      fault.setMode("all", mode);
      await Promise.all([
        send(`image under ${mode}`, "/api/studio/images", { method: "POST", body: { prompt: `image ${mode}`, model: "m" } }),
        send(`video under ${mode}`, "/api/ai/videos", { method: "POST", body: { prompt: `video ${mode}`, model: "m" } }),
        send(`status under ${mode}`, "/api/ai/videos/12345"),
      ]);
    }
    fault.setMode("all", "ok");
    await send("failed history", "/api/studio/generations?status=failed&limit=200");
    await send("healthz after faults", "/healthz");

    await events.close();
    responses.push({
      label: "SSE stream",
      response: { status: events.status, headers: events.headers, text: events.raw(), json: undefined, ms: 0 },
    });
    expect(events.events.some((event) => event.event === "generation")).toBe(true);

    // Nothing a client saw carried the key...
    expect(responses.length).toBeGreaterThan(60);
    expectNoLeakInResponses(responses, canary);
    // ...while the provider got it on every call, and got none of the browser's credentials.
    const apiCalls = fault.requests.filter((request) => request.route !== "file" && request.route !== "other");
    expect(apiCalls.length).toBeGreaterThan(20);
    for (const request of apiCalls) {
      expect(request.headers.authorization).toBe(`Bearer ${canary}`);
    }
    for (const request of fault.requests) {
      expect(request.headers.cookie).toBeUndefined();
      expect(JSON.stringify(request.headers)).not.toContain(studioToken);
      expect(request.headers["x-studio-request"]).toBeUndefined();
      expect(request.headers.origin).toBeUndefined();
    }
    // Media downloads go to file URLs that may be a CDN: the key is not sent there.
    const downloads = fault.requests.filter((request) => request.route === "file");
    expect(downloads.length).toBeGreaterThanOrEqual(3);
    for (const download of downloads) expect(download.headers.authorization).toBeUndefined();
  });

  it("keeps the key out of every log line", () => {
    expect(logs.lines.length).toBeGreaterThan(20);
    expect(logs.lines.some((line) => line.includes('"message":"request"'))).toBe(true);
    const leaking = logs.lines.filter((line) => findLeak(line, canary));
    expect(leaking).toEqual([]);
  });

  it("keeps the key out of the data dir (ledger, WAL, media)", async () => {
    expect(await filesContaining(studio.dataDir, canary)).toEqual([]);
  });
});

describe("the provider key (canary) against a standalone sandbox", () => {
  const canary = `sandbox-canary-${randomBytes(18).toString("hex")}`;
  let sandbox: RunningSandbox;
  let studio: SocketStudio;
  let logs: ReturnType<typeof captureConsole>;
  let mediaDir = "";

  beforeAll(async () => {
    logs = captureConsole();
    mediaDir = await mkdtemp(path.join(os.tmpdir(), "canary-sandbox-"));
    sandbox = await startSandbox({
      config: { ...defaultSandboxConfig, apiKeys: [canary], mediaDir, pendingMs: 50, processingMs: 200, videoDurationSeconds: 1 },
      log: () => {},
    });
    studio = await startSocketStudio({ UPSTREAM_BASE_URL: sandbox.baseUrl, UPSTREAM_API_KEY: canary, LOG_LEVEL: "debug", RECONCILE_INTERVAL_MS: "200" });
  });

  afterAll(async () => {
    await studio?.close();
    await sandbox?.close();
    if (mediaDir) await rm(mediaDir, { recursive: true, force: true });
    logs?.restore();
  });

  it("real image and video generations, history and the event stream never show the key", async () => {
    const responses: Array<{ label: string; response: FullResponse }> = [];
    const send = async (label: string, pathname: string, init: CallInit = {}) => {
      const response = await call(studio.url, pathname, init);
      responses.push({ label, response });
      return response;
    };
    const events = await openSse(`${studio.url}/api/studio/events`);
    const image = await send("image", "/api/studio/images", { method: "POST", body: { prompt: "sandbox canary", model: "sandbox-image-1" } });
    expect(image.status).toBe(201);
    const video = await send("video", "/api/studio/videos", { method: "POST", body: { prompt: "sandbox canary video", model: "sandbox-video-1", size: "128x72" } });
    expect(video.status).toBe(202);
    const id = (video.json as Generation).id;
    const done = await waitFor(() => send("poll", `/api/studio/generations/${id}`).then((response) => response.json as Generation), isMirrored, 20_000, 100);
    await send("provider status", `/api/ai/videos/${done.providerTaskId ?? ""}`);
    for (const output of done.outputs) await send("media", output.url);
    await send("history", "/api/studio/generations");
    await send("fail trigger", "/api/studio/images", { method: "POST", body: { prompt: "sandbox:fail please", model: "sandbox-image-1" } });
    await events.close();
    responses.push({ label: "SSE", response: { status: events.status, headers: events.headers, text: events.raw(), json: undefined, ms: 0 } });

    expectNoLeakInResponses(responses, canary);
    expect(logs.lines.filter((line) => findLeak(line, canary))).toEqual([]);
    expect(await filesContaining(studio.dataDir, canary)).toEqual([]);
  });
});

describe("the built web app and its sources", () => {
  it("contain no provider key, even when the build runs with the key in its environment", async () => {
    const configuredKeys = [process.env.UPSTREAM_API_KEY, await keyFromDotEnv()].filter((key): key is string => Boolean(key && key.length >= 8));
    const canary = `canary-${randomBytes(18).toString("hex")}`;
    for (const secret of [canary, ...configuredKeys]) {
      expect(await filesContaining(path.join(root, "src/web"), secret)).toEqual([]);
    }
    // A build whose environment holds the key, as on a server where both are set: nothing may carry it into the bundle.
    const outDir = await mkdtemp(path.join(os.tmpdir(), "dist-canary-"));
    try {
      await execFileAsync(process.execPath, [path.join(root, "node_modules/vite/bin/vite.js"), "build", "--outDir", outDir, "--emptyOutDir", "--logLevel", "error"], {
        cwd: root,
        env: { ...process.env, UPSTREAM_API_KEY: canary, STUDIO_TOKEN: `${canary}-token`, VITE_UPSTREAM_API_KEY: undefined },
      });
      expect(existsSync(path.join(outDir, "index.html"))).toBe(true);
      expect(await filesContaining(outDir, canary)).toEqual([]);
      const mentions: string[] = [];
      for (const file of await filesUnder(outDir)) {
        if ((await readFile(file, "latin1")).includes("UPSTREAM_API_KEY")) mentions.push(path.basename(file));
      }
      expect(mentions).toEqual([]);
    } finally {
      await rm(outDir, { recursive: true, force: true });
    }
    if (existsSync(distDir)) {
      for (const secret of configuredKeys) expect(await filesContaining(distDir, secret)).toEqual([]);
    }
  }, 120_000);
});

async function keyFromDotEnv(): Promise<string | null> {
  const file = path.join(root, ".env");
  if (!existsSync(file)) return null;
  const match = /^\s*UPSTREAM_API_KEY\s*=\s*["']?([^"'\s#]+)/m.exec(await readFile(file, "utf8"));
  return match?.[1] ?? null;
}
