import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import path from "node:path";
import { Readable } from "node:stream";
import { Hono } from "hono";
import { streamSSE } from "hono/streaming";
import { HttpError } from "../../api/errors";
import { acceptedImageTypes } from "../../api/image-types";
import { PROMPT_MAX_LENGTH } from "../../api/provider";
import {
  favouriteBodySchema,
  generationListQuerySchema,
  STUDIO_EVENT_DELETED,
  STUDIO_EVENT_GENERATION,
  type Session,
  type StudioConfig,
} from "../../api/studio";
import { ingestGenerationRequest } from "../ingest";
import { InvalidCursorError } from "../ledger/ledger";
import type { StudioDeps } from "../studio-deps";

const ASPECT_RATIOS = ["1:1", "16:9", "9:16", "4:3", "3:4", "3:2", "2:3", "21:9"];
const VIDEO_SIZES = ["1280x720", "720x1280", "960x960", "640x360"];
const HEARTBEAT_MS = 15_000;

/** The studio's own API under /api/studio, used by the web app. */
export function studioRoutes(deps: StudioDeps) {
  const { config, ledger, service, events, ingestLimits } = deps;

  const studioConfig: StudioConfig = {
    imageModels: config.imageModels,
    videoModels: config.videoModels,
    aspectRatios: ASPECT_RATIOS,
    videoSizes: VIDEO_SIZES,
    limits: {
      promptMaxLength: PROMPT_MAX_LENGTH,
      maxReferenceImages: ingestLimits.maxReferenceImages,
      maxReferenceImageBytes: ingestLimits.maxReferenceImageBytes,
      acceptedImageTypes: [...acceptedImageTypes],
    },
    sandbox: deps.sandbox,
  };

  const requireGeneration = (id: string) => {
    const generation = ledger.getGeneration(id);
    if (!generation) throw new HttpError(404, "not_found", "That generation does not exist (it may have been deleted).");
    return generation;
  };

  return new Hono()
    .get("/config", (c) => c.json(studioConfig, 200))
    .get("/generations", (c) => {
      const query = generationListQuerySchema.safeParse(c.req.query());
      if (!query.success) {
        const issue = query.error.issues[0];
        throw new HttpError(400, "invalid_field", `${issue?.path.join(".") || "query"}: ${issue?.message ?? "invalid value"}`);
      }
      try {
        return c.json(ledger.listGenerations(query.data), 200);
      } catch (error) {
        if (error instanceof InvalidCursorError) throw new HttpError(400, "invalid_field", "The page cursor is not valid; start from the first page.");
        throw error;
      }
    })
    .get("/generations/:id", (c) => c.json(requireGeneration(c.req.param("id")), 200))
    .put("/generations/:id/favourite", async (c) => {
      const body = favouriteBodySchema.safeParse(await c.req.json().catch(() => null));
      if (!body.success) throw new HttpError(400, "invalid_body", 'Send {"favourite": true} or {"favourite": false}.');
      const generation = service.setFavourite(c.req.param("id"), body.data.favourite);
      if (!generation) throw new HttpError(404, "not_found", "That generation does not exist (it may have been deleted).");
      return c.json(generation, 200);
    })
    .delete("/generations/:id", async (c) => {
      if (!(await service.deleteGeneration(c.req.param("id")))) {
        throw new HttpError(404, "not_found", "That generation does not exist (it may have been deleted).");
      }
      return c.body(null, 204);
    })
    .post("/images", async (c) => {
      const request = await ingestGenerationRequest(c.req.raw, config.dataDir, ingestLimits);
      const generation = await service.createImage(request);
      return c.json(generation, 201);
    })
    .post("/videos", async (c) => {
      const request = await ingestGenerationRequest(c.req.raw, config.dataDir, ingestLimits);
      const { generation } = await service.submitVideo(request);
      return c.json(generation, 202);
    })
    .get("/references/:id", async (c) => {
      const reference = ledger.getReferenceFile(c.req.param("id"));
      if (!reference) throw new HttpError(404, "not_found", "That reference image does not exist.");
      const filePath = path.join(config.dataDir, reference.filePath);
      const info = await stat(filePath).catch(() => null);
      if (!info) throw new HttpError(404, "not_found", "That reference image's file is missing.");
      c.header("content-type", reference.mime);
      c.header("content-length", String(info.size));
      c.header("cache-control", "private, max-age=31536000, immutable");
      c.header("content-disposition", `inline; filename*=UTF-8''${encodeURIComponent(reference.name)}`);
      return c.body(Readable.toWeb(createReadStream(filePath)) as ReadableStream, 200);
    })
    .get("/events", (c) =>
      streamSSE(c, async (stream) => {
        const unsubscribe = events.subscribe((event) => {
          const message =
            event.type === "generation"
              ? { event: STUDIO_EVENT_GENERATION, data: JSON.stringify(event.generation), id: `${event.generation.id}:${event.generation.updatedAt}` }
              : { event: STUDIO_EVENT_DELETED, data: JSON.stringify({ id: event.id }) };
          void stream.writeSSE(message).catch(() => undefined);
        });
        let open = true;
        stream.onAbort(() => {
          open = false;
          unsubscribe();
        });
        await stream.writeSSE({ event: "ready", data: "{}", retry: 3000 });
        while (open) {
          await stream.sleep(HEARTBEAT_MS);
          if (open) await stream.write(": heartbeat\n\n");
        }
      }),
    )
    .get("/session", (c) => {
      const session: Session = { required: deps.auth.required, authenticated: deps.auth.isAuthenticated(c) };
      return c.json(session, 200);
    })
    .post("/session", async (c) => {
      const body = (await c.req.json().catch(() => null)) as { token?: unknown } | null;
      if (!deps.auth.signIn(c, body?.token)) throw new HttpError(401, "unauthorized", "That studio token is not right.");
      return c.body(null, 204);
    })
    .delete("/session", (c) => {
      deps.auth.signOut(c);
      return c.body(null, 204);
    });
}
