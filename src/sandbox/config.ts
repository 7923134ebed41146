import path from "node:path";
import { z } from "zod";

export interface SandboxConfig {
  /** Accepted `Authorization: Bearer <key>` values. */
  apiKeys: string[];
  /** Generated files, reference inputs and the persisted task records live here. */
  mediaDir: string;
  /** Time a video task waits in `pending` before a worker may pick it up. */
  pendingMs: number;
  /** Minimum time a video task spends in `processing`. */
  processingMs: number;
  /** Extra delay before an image generation answers (simulates a slow model). */
  imageDelayMs: number;
  /** Video tasks rendered at once; the rest wait in `pending`. */
  videoConcurrency: number;
  videoDurationSeconds: number;
  maxReferenceImages: number;
  maxReferenceImageBytes: number;
  imageFetchTimeoutMs: number;
  webhookAttempts: number;
  webhookRetryBaseMs: number;
  webhookTimeoutMs: number;
}

export const defaultSandboxConfig: SandboxConfig = {
  apiKeys: ["sandbox-key"],
  mediaDir: path.resolve(".sandbox-media"),
  pendingMs: 1000,
  processingMs: 6000,
  imageDelayMs: 0,
  videoConcurrency: 2,
  videoDurationSeconds: 3,
  maxReferenceImages: 10,
  maxReferenceImageBytes: 32 * 1024 * 1024,
  imageFetchTimeoutMs: 10_000,
  webhookAttempts: 4,
  webhookRetryBaseMs: 500,
  webhookTimeoutMs: 5000,
};

const milliseconds = z.coerce.number().int().min(0).max(3_600_000);

const sandboxEnvSchema = z.object({
  SANDBOX_HOST: z.string().min(1).default("127.0.0.1"),
  SANDBOX_PORT: z.coerce.number().int().min(0).max(65_535).default(8790),
  SANDBOX_API_KEYS: z
    .string()
    .default("sandbox-key")
    .transform((value) => value.split(",").map((key) => key.trim()).filter(Boolean))
    .pipe(z.array(z.string()).min(1, "needs at least one key")),
  SANDBOX_MEDIA_DIR: z.string().min(1).default(".sandbox-media"),
  SANDBOX_PENDING_MS: milliseconds.default(defaultSandboxConfig.pendingMs),
  SANDBOX_PROCESSING_MS: milliseconds.default(defaultSandboxConfig.processingMs),
  SANDBOX_IMAGE_DELAY_MS: milliseconds.default(defaultSandboxConfig.imageDelayMs),
  SANDBOX_VIDEO_CONCURRENCY: z.coerce.number().int().min(1).max(16).default(defaultSandboxConfig.videoConcurrency),
  SANDBOX_VIDEO_SECONDS: z.coerce.number().min(1).max(20).default(defaultSandboxConfig.videoDurationSeconds),
  SANDBOX_WEBHOOK_ATTEMPTS: z.coerce.number().int().min(1).max(20).default(defaultSandboxConfig.webhookAttempts),
});

export interface SandboxListenOptions {
  host: string;
  port: number;
}

/** Reads the standalone sandbox's settings from the environment; throws a readable message when one is wrong. */
export function sandboxConfigFromEnv(env: NodeJS.ProcessEnv): { config: SandboxConfig; listen: SandboxListenOptions } {
  const parsed = sandboxEnvSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join(".")}: ${issue.message}`);
    throw new Error(`Invalid sandbox configuration:\n${lines.join("\n")}`);
  }
  const values = parsed.data;
  return {
    listen: { host: values.SANDBOX_HOST, port: values.SANDBOX_PORT },
    config: {
      ...defaultSandboxConfig,
      apiKeys: values.SANDBOX_API_KEYS,
      mediaDir: path.resolve(values.SANDBOX_MEDIA_DIR),
      pendingMs: values.SANDBOX_PENDING_MS,
      processingMs: values.SANDBOX_PROCESSING_MS,
      imageDelayMs: values.SANDBOX_IMAGE_DELAY_MS,
      videoConcurrency: values.SANDBOX_VIDEO_CONCURRENCY,
      videoDurationSeconds: values.SANDBOX_VIDEO_SECONDS,
      webhookAttempts: values.SANDBOX_WEBHOOK_ATTEMPTS,
    },
  };
}
