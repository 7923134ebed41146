import { Hono } from "hono";
import { HttpError } from "../../api/errors";
import { isTerminalStatus, taskIdSchema, type ImageResult, type VideoTaskRecord } from "../../api/provider";
import type { Generation } from "../../api/studio";
import { ingestGenerationRequest } from "../ingest";
import type { StudioDeps } from "../studio-deps";

/**
 * The provider's own three paths, so any client written for the provider works against the studio
 * with the studio token instead of the key. Every call is recorded in the ledger.
 */
export function providerRoutes(deps: StudioDeps) {
  const { config, ledger, service, upstream, ingestLimits, pollIntervalMs } = deps;
  const absolute = (origin: string, url: string) => (url.startsWith("/") ? `${config.publicUrl ?? origin}${url}` : url);

  return new Hono()
    .post("/images/generations", async (c) => {
      const request = await ingestGenerationRequest(c.req.raw, config.dataDir, ingestLimits);
      const generation = await service.createImage(request);
      const origin = new URL(c.req.url).origin;
      const result: ImageResult = {
        created: Math.floor((generation.completedAt ?? Date.now()) / 1000),
        data: generation.outputs.map((output) => ({ url: absolute(origin, output.url) })),
      };
      return c.json(result, 200);
    })
    .post("/videos", async (c) => {
      const request = await ingestGenerationRequest(c.req.raw, config.dataDir, ingestLimits);
      const { acceptance } = await service.submitVideo(request);
      return c.json(acceptance, 200);
    })
    .get("/videos/:taskId", async (c) => {
      const taskId = c.req.param("taskId");
      if (!taskIdSchema.safeParse(taskId).success) {
        throw new HttpError(400, "invalid_task_id", "Task ids are numeric strings, as returned by POST /api/ai/videos.");
      }
      const known = ledger.findByProviderTaskId(taskId);
      if (!known) return c.json(await upstream.getVideo(taskId), 200);

      // Coalesced: however many callers poll, the provider is asked at most once per interval.
      let generation: Generation | null = known;
      const lastRead = service.lastReadAt(known.id);
      if (!isTerminalStatus(known.status) && (lastRead === undefined || Date.now() - lastRead >= pollIntervalMs)) {
        generation = await service.refreshVideo(known.id);
      }
      if (!generation) throw new HttpError(404, "task_not_found", `No video task has the id ${taskId}.`);
      // A caller waiting on this answer gets the studio's own copies, which outlive the provider's URLs.
      if (generation.status === "success" && generation.outputs.some((output) => !output.url.startsWith("/"))) {
        await service.mirrorGeneration(generation.id);
        generation = ledger.getGeneration(generation.id) ?? generation;
      }
      return c.json(toTaskRecord(generation, taskId, (url) => absolute(new URL(c.req.url).origin, url)), 200);
    });
}

function toTaskRecord(generation: Generation, taskId: string, absolute: (url: string) => string): VideoTaskRecord {
  return {
    id: taskId,
    object: "video",
    created: Math.floor(generation.createdAt / 1000),
    model: generation.model,
    status: generation.status,
    data:
      generation.status === "success"
        ? generation.outputs.map((output) => ({ url: absolute(output.url), cover_url: output.coverUrl ? absolute(output.coverUrl) : null }))
        : [],
    error: generation.status === "failed" ? (generation.error ?? { code: "generation_failed", message: "The task failed." }) : null,
  };
}
