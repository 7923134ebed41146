import { randomBytes } from "node:crypto";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { serve } from "@hono/node-server";
import { defaultSandboxConfig, type SandboxConfig } from "../sandbox/config";
import { startSandbox, type RunningSandbox } from "../sandbox/start-sandbox";
import { createStudioApp } from "./app";
import { StudioAuth } from "./auth";
import type { ServerConfig } from "./env";
import { StudioEvents } from "./events";
import { GenerationService } from "./generation-service";
import { openLedgerDatabase } from "./ledger/database";
import { Ledger } from "./ledger/ledger";
import { createLogger, type Logger } from "./logger";
import { MediaMirror } from "./media-mirror";
import { Reconciler } from "./reconciler";
import type { StudioDeps } from "./studio-deps";
import { UpstreamClient } from "./upstream";

export interface StudioOptions {
  distDir?: string;
  logger?: Logger;
  /** Overrides for the embedded sandbox's timings (tests). */
  sandboxOverrides?: Partial<typeof defaultSandboxConfig>;
  /** Upstream GET retry waits (tests use short ones). */
  upstreamRetryDelaysMs?: number[];
}

export interface RunningStudio {
  url: string;
  deps: StudioDeps;
  app: ReturnType<typeof createStudioApp>;
  /** Stops accepting requests, the reconciler, the embedded sandbox, and closes the ledger. */
  close: () => Promise<void>;
}

/** Builds everything the studio needs (without listening): for route tests and for start-up. */
export async function createStudio(config: ServerConfig, options: StudioOptions = {}) {
  await mkdir(config.dataDir, { recursive: true });
  let sandbox: RunningSandbox | null = null;
  let upstreamConfig = config.upstream;
  if (!upstreamConfig) {
    // The embedded default: a sandbox provider with a key made up for this run only.
    const apiKey = randomBytes(24).toString("base64url");
    sandbox = await startEmbeddedSandbox({
      ...defaultSandboxConfig,
      ...config.sandboxTimings,
      apiKeys: [apiKey],
      mediaDir: path.join(config.dataDir, "sandbox"),
      ...options.sandboxOverrides,
    });
    upstreamConfig = { baseUrl: sandbox.baseUrl, apiKey };
  }
  const log = options.logger ?? createLogger(config.logLevel, [upstreamConfig.apiKey, config.studioToken ?? ""]);

  const database = openLedgerDatabase(path.join(config.dataDir, "ledger.sqlite"));
  const ledger = new Ledger(database);
  const events = new StudioEvents();
  const mirror = new MediaMirror({ dataDir: config.dataDir, fetchTimeoutMs: 120_000, maxBytes: 1024 * 1024 * 1024 });
  const upstream = new UpstreamClient({
    baseUrl: upstreamConfig.baseUrl,
    apiKey: upstreamConfig.apiKey,
    timeoutMs: config.upstreamTimeoutMs,
    statusTimeoutMs: config.upstreamStatusTimeoutMs,
    retryDelaysMs: options.upstreamRetryDelaysMs,
  });
  const pollIntervalMs = config.reconcileIntervalMs;
  // Filled in once the listening port is known; the embedded sandbox always gets a webhook URL.
  let listeningUrl: string | null = null;
  const webhookBase = () => config.publicUrl ?? (sandbox ? listeningUrl : null);
  const service = new GenerationService({
    ledger,
    upstream,
    mirror,
    events,
    log,
    dataDir: config.dataDir,
    videoDeadlineMs: config.videoDeadlineMs,
    pollIntervalMs,
    webhookUrl: (token) => {
      const base = webhookBase();
      return base ? `${base}/api/studio/webhooks/${token}` : null;
    },
  });
  const deps: StudioDeps = {
    config,
    ledger,
    service,
    events,
    mirror,
    upstream,
    auth: new StudioAuth(config.studioToken, config.publicUrl?.startsWith("https:") ?? false),
    log,
    ingestLimits: { maxReferenceImages: config.maxReferenceImages, maxReferenceImageBytes: config.maxReferenceImageBytes },
    sandbox: sandbox !== null,
    pollIntervalMs,
  };
  const app = createStudioApp(deps, { distDir: options.distDir });
  const reconciler = new Reconciler({ ledger, service, log, pollIntervalMs, tickMs: Math.min(1000, pollIntervalMs) });

  return {
    app,
    deps,
    reconciler,
    setListeningUrl: (url: string) => {
      listeningUrl = url;
    },
    close: async () => {
      await reconciler.stop();
      await sandbox?.close();
      database.close();
    },
  };
}

/** Starts the studio on a real socket: embedded sandbox (unless UPSTREAM_BASE_URL), reconciler, HTTP. */
export async function startStudio(config: ServerConfig, options: StudioOptions = {}): Promise<RunningStudio> {
  const studio = await createStudio(config, options);
  const server = await new Promise<ReturnType<typeof serve>>((resolve, reject) => {
    const started = serve(
      {
        fetch: studio.app.fetch,
        hostname: config.host,
        port: config.port,
        serverOptions: { requestTimeout: 300_000, headersTimeout: 20_000, keepAliveTimeout: 5_000 },
      },
      () => resolve(started),
    );
    started.once("error", reject);
  });
  const { port } = server.address() as AddressInfo;
  const host = config.host === "0.0.0.0" || config.host === "::" ? "127.0.0.1" : config.host.includes(":") ? `[${config.host}]` : config.host;
  const url = `http://${host}:${port}`;
  studio.setListeningUrl(url);
  studio.reconciler.start();

  return {
    url,
    deps: studio.deps,
    app: studio.app,
    close: async () => {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        if ("closeAllConnections" in server) server.closeAllConnections();
      });
      await studio.close();
    },
  };
}

/**
 * Starts the embedded sandbox on the port it had in the previous run when that port is free: the
 * ledger keeps the file URLs it handed out, and media a stopped (or killed) studio had not mirrored
 * yet is fetched from them after the restart. Falls back to any free port.
 */
async function startEmbeddedSandbox(config: SandboxConfig): Promise<RunningSandbox> {
  const portFile = path.join(config.mediaDir, "port");
  const previousPort = Number.parseInt(await readFile(portFile, "utf8").catch(() => ""), 10);
  let sandbox: RunningSandbox | null = null;
  if (previousPort > 0 && previousPort < 65_536) {
    sandbox = await startSandbox({ config, port: previousPort, log: () => {} }).catch(() => null);
  }
  sandbox ??= await startSandbox({ config, port: 0, log: () => {} });
  await mkdir(config.mediaDir, { recursive: true });
  await writeFile(portFile, new URL(sandbox.baseUrl).port);
  return sandbox;
}
