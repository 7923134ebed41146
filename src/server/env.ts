import path from "node:path";
import { z } from "zod";
import { POLL_INTERVAL_MS } from "../api/provider";

const commaList = (fallback: string) =>
  z
    .string()
    .default(fallback)
    .transform((value) => value.split(",").map((item) => item.trim()).filter(Boolean));

const httpUrl = z.url({ protocol: /^https?$/, error: "must be an http(s) URL" }).transform((value) => value.replace(/\/+$/, ""));

const portMessage = "must be a whole number from 0 to 65535";

const serverEnvSchema = z
  .object({
    UPSTREAM_BASE_URL: httpUrl.optional(),
    UPSTREAM_API_KEY: z.string().min(1).optional(),
    HOST: z.string().min(1).default("127.0.0.1"),
    PORT: z.coerce.number({ error: portMessage }).int(portMessage).min(0, portMessage).max(65_535, portMessage).default(3000),
    STUDIO_DATA_DIR: z.string().min(1).default("./data"),
    PUBLIC_URL: httpUrl.optional(),
    STUDIO_TOKEN: z.string().min(12, "must be at least 12 characters").optional(),
    STUDIO_IMAGE_MODELS: commaList("sandbox-image-1,sandbox-image-1-hd"),
    STUDIO_VIDEO_MODELS: commaList("sandbox-video-1"),
    STUDIO_MAX_REFERENCE_IMAGES: z.coerce.number().int().min(1).max(16).default(8),
    STUDIO_MAX_REFERENCE_IMAGE_MB: z.coerce.number().min(1).max(100).default(25),
    UPSTREAM_TIMEOUT_MS: z.coerce.number().int().min(1000).default(180_000),
    UPSTREAM_STATUS_TIMEOUT_MS: z.coerce.number().int().min(500).default(15_000),
    VIDEO_DEADLINE_MINUTES: z.coerce.number().min(1).default(30),
    RECONCILE_INTERVAL_MS: z.coerce.number().int().min(100).default(POLL_INTERVAL_MS),
    LOG_LEVEL: z.enum(["debug", "info", "warn", "error", "silent"]).default("info"),
    // Timings of the embedded sandbox (the same names as the standalone sandbox's); unset keeps its defaults.
    SANDBOX_PENDING_MS: z.coerce.number().int().min(0).max(3_600_000).optional(),
    SANDBOX_PROCESSING_MS: z.coerce.number().int().min(0).max(3_600_000).optional(),
    SANDBOX_IMAGE_DELAY_MS: z.coerce.number().int().min(0).max(3_600_000).optional(),
    SANDBOX_VIDEO_SECONDS: z.coerce.number().min(1).max(20).optional(),
  })
  .superRefine((env, context) => {
    if (env.UPSTREAM_BASE_URL && !env.UPSTREAM_API_KEY) {
      context.addIssue({ code: "custom", path: ["UPSTREAM_API_KEY"], message: "is required when UPSTREAM_BASE_URL is set" });
    }
    if (!isLoopback(env.HOST) && !env.STUDIO_TOKEN) {
      context.addIssue({
        code: "custom",
        path: ["STUDIO_TOKEN"],
        message: `is required when HOST (${env.HOST}) is not a loopback address: anyone on the network could spend your provider credit`,
      });
    }
  });

export interface ServerConfig {
  /** Null means: start the embedded sandbox provider and use it. */
  upstream: { baseUrl: string; apiKey: string } | null;
  host: string;
  port: number;
  dataDir: string;
  publicUrl: string | null;
  studioToken: string | null;
  imageModels: string[];
  videoModels: string[];
  maxReferenceImages: number;
  maxReferenceImageBytes: number;
  upstreamTimeoutMs: number;
  upstreamStatusTimeoutMs: number;
  videoDeadlineMs: number;
  reconcileIntervalMs: number;
  logLevel: "debug" | "info" | "warn" | "error" | "silent";
  /** Timings for the embedded sandbox (SANDBOX_* variables); only the ones set. */
  sandboxTimings?: { pendingMs?: number; processingMs?: number; imageDelayMs?: number; videoDurationSeconds?: number };
}

export class ConfigError extends Error {
  override readonly name = "ConfigError";
}

/** Parses the environment; throws a ConfigError listing every wrong variable in plain words. */
export function loadServerConfig(env: NodeJS.ProcessEnv): ServerConfig {
  // An empty variable (PORT= in .env, ${PORT} of an unset shell variable) means unset, not "" or 0.
  const present = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value.trim() !== ""));
  const parsed = serverEnvSchema.safeParse(present);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join(".")} ${issue.message}`);
    throw new ConfigError(`The studio server's configuration is invalid:\n${lines.join("\n")}\nSee .env.example for every setting.`);
  }
  const values = parsed.data;
  return {
    upstream: values.UPSTREAM_BASE_URL && values.UPSTREAM_API_KEY ? { baseUrl: values.UPSTREAM_BASE_URL, apiKey: values.UPSTREAM_API_KEY } : null,
    host: values.HOST,
    port: values.PORT,
    dataDir: path.resolve(values.STUDIO_DATA_DIR),
    publicUrl: values.PUBLIC_URL ?? null,
    studioToken: values.STUDIO_TOKEN ?? null,
    imageModels: values.STUDIO_IMAGE_MODELS,
    videoModels: values.STUDIO_VIDEO_MODELS,
    maxReferenceImages: values.STUDIO_MAX_REFERENCE_IMAGES,
    maxReferenceImageBytes: Math.round(values.STUDIO_MAX_REFERENCE_IMAGE_MB * 1024 * 1024),
    upstreamTimeoutMs: values.UPSTREAM_TIMEOUT_MS,
    upstreamStatusTimeoutMs: values.UPSTREAM_STATUS_TIMEOUT_MS,
    videoDeadlineMs: values.VIDEO_DEADLINE_MINUTES * 60_000,
    reconcileIntervalMs: values.RECONCILE_INTERVAL_MS,
    logLevel: values.LOG_LEVEL,
    sandboxTimings: definedOnly({
      pendingMs: values.SANDBOX_PENDING_MS,
      processingMs: values.SANDBOX_PROCESSING_MS,
      imageDelayMs: values.SANDBOX_IMAGE_DELAY_MS,
      videoDurationSeconds: values.SANDBOX_VIDEO_SECONDS,
    }),
  };
}

function definedOnly<T extends Record<string, unknown>>(values: T): Partial<T> {
  return Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined)) as Partial<T>;
}

export function isLoopback(host: string): boolean {
  return host === "localhost" || host === "::1" || host === "[::1]" || /^127(\.\d{1,3}){3}$/.test(host);
}
