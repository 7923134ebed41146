import { createHash, timingSafeEqual } from "node:crypto";
import { mkdir, writeFile } from "node:fs/promises";
import { setTimeout as delay } from "node:timers/promises";
import path from "node:path";
import { serveStatic } from "@hono/node-server/serve-static";
import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import type { ImageResult } from "../api/provider";
import { imageGenerationRequestSchema, providerPaths, taskIdSchema, videoSubmissionRequestSchema } from "../api/provider";
import type { SandboxConfig } from "./config";
import { errorBody, HttpError } from "../api/errors";
import { renderImage } from "./render-image";
import { readGenerationRequest } from "./request-body";
import { FAIL_TRIGGER, type TaskManager } from "./tasks";

export interface SandboxAppOptions {
  config: SandboxConfig;
  tasks: TaskManager;
  /** Absolute URL of a generated file, e.g. http://127.0.0.1:8790/files/x.png */
  fileUrl: (fileName: string) => string;
  log: (message: string, fields?: Record<string, unknown>) => void;
}

const FILE_NAME = /^[\w-]+\.(png|mp4)$/;

/** The sandbox provider's HTTP interface: the spec's three endpoints plus the files it hands out. */
export function createSandboxApp({ config, tasks, fileUrl, log }: SandboxAppOptions) {
  const filesDir = path.join(config.mediaDir, "files");
  const maxBodyBytes = config.maxReferenceImages * config.maxReferenceImageBytes + 1024 * 1024;

  const app = new Hono();

  app.onError((error, c) => {
    if (error instanceof HttpError) return c.json(error.toBody(), error.status);
    log("sandbox request failed", { method: c.req.method, path: c.req.path, error: String(error) });
    return c.json(errorBody("internal_error", "The sandbox hit an unexpected error."), 500);
  });
  app.notFound((c) => c.json(errorBody("not_found", `Nothing at ${c.req.method} ${c.req.path}.`), 404));

  app.get("/healthz", (c) => c.json({ ok: true }));

  app.get("/files/:name", async (c, next) => {
    if (!FILE_NAME.test(c.req.param("name"))) throw new HttpError(404, "not_found", "No such file.");
    return serveStatic({
      root: filesDir,
      rewriteRequestPath: () => c.req.param("name"),
      onFound: (_path, context) => {
        context.header("cache-control", "public, max-age=31536000, immutable");
      },
    })(c, next);
  });

  app.use("/api/ai/*", async (c, next) => {
    const header = c.req.header("authorization") ?? "";
    const key = header.startsWith("Bearer ") ? header.slice("Bearer ".length).trim() : "";
    if (!key || !config.apiKeys.some((accepted) => safeEqual(accepted, key))) {
      c.header("www-authenticate", 'Bearer realm="media-studio-sandbox"');
      throw new HttpError(401, "unauthorized", key ? "The API key is not valid." : "Send the API key as Authorization: Bearer <key>.");
    }
    await next();
  });

  app.use(
    "/api/ai/*",
    bodyLimit({
      maxSize: maxBodyBytes,
      onError: () => {
        throw new HttpError(413, "payload_too_large", `The request body is larger than ${Math.round(maxBodyBytes / 1024 / 1024)} MB.`);
      },
    }),
  );

  app.post(providerPaths.images, async (c) => {
    const { fields, references } = await readGenerationRequest(c.req.raw, imageGenerationRequestSchema, config);
    if (fields.prompt.includes(FAIL_TRIGGER)) {
      throw new HttpError(500, "generation_failed", "The image could not be generated.");
    }
    if (config.imageDelayMs > 0) await delay(config.imageDelayMs);
    const png = await renderImage({ prompt: fields.prompt, aspectRatio: fields.aspect_ratio, reference: references[0]?.bytes });
    const name = `image-${createHash("sha256").update(png).digest("hex").slice(0, 24)}.png`;
    await mkdir(filesDir, { recursive: true });
    await writeFile(path.join(filesDir, name), png);
    const result: ImageResult = { created: Math.floor(Date.now() / 1000), data: [{ url: fileUrl(name) }] };
    return c.json(result, 200);
  });

  app.post(providerPaths.videos, async (c) => {
    const { fields, references } = await readGenerationRequest(c.req.raw, videoSubmissionRequestSchema, config);
    const acceptance = await tasks.submit({
      prompt: fields.prompt,
      model: fields.model,
      size: fields.size,
      webhookUrl: fields.webhookUrl ?? fields.callback_url,
      references,
    });
    return c.json(acceptance, 200);
  });

  app.get("/api/ai/videos/:taskId", (c) => {
    const taskId = c.req.param("taskId");
    if (!taskIdSchema.safeParse(taskId).success) {
      throw new HttpError(400, "invalid_task_id", "Task ids are numeric strings, as returned by POST /api/ai/videos.");
    }
    const record = tasks.get(taskId);
    if (!record) throw new HttpError(404, "task_not_found", `No video task has the id ${taskId}.`);
    return c.json(record, 200);
  });

  return app;
}

function safeEqual(expected: string, given: string): boolean {
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}
