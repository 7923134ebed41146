import { existsSync } from "node:fs";
import path from "node:path";
import { serveStatic } from "@hono/node-server/serve-static";
import { Hono, type MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import { errorBody, HttpError } from "../api/errors";
import { csrfGuard, hostCheck } from "./security";
import { providerRoutes } from "./routes/provider-routes";
import { studioRoutes } from "./routes/studio-routes";
import { webhookRoutes } from "./routes/webhook-routes";
import type { StudioDeps } from "./studio-deps";

const SMALL_BODY_BYTES = 64 * 1024;

export interface StudioAppOptions {
  /** The built SPA (vite build output); absent in route tests. */
  distDir?: string;
}

/** The studio server's HTTP surface: provider proxy, studio API, webhooks, media and the SPA. */
export function createStudioApp(deps: StudioDeps, { distDir }: StudioAppOptions = {}) {
  const { config, auth, log, ingestLimits } = deps;
  const uploadLimit = ingestLimits.maxReferenceImages * ingestLimits.maxReferenceImageBytes + 1024 * 1024;
  const limitBody = (maxSize: number) =>
    bodyLimit({
      maxSize,
      onError: () => {
        throw new HttpError(413, "payload_too_large", `The request body is larger than ${Math.ceil(maxSize / 1024 / 1024)} MB.`);
      },
    });

  // Upload routes stream their bodies: Hono's bodyLimit would buffer a chunked upload whole, so only the
  // declared length is checked here and ingest counts every file's bytes as they arrive.
  const limitDeclaredLength =
    (maxSize: number): MiddlewareHandler =>
    async (c, next) => {
      if (Number(c.req.header("content-length") ?? 0) > maxSize) {
        throw new HttpError(413, "payload_too_large", `The request body is larger than ${Math.ceil(maxSize / 1024 / 1024)} MB.`);
      }
      await next();
    };

  const app = new Hono();

  app.onError((error, c) => {
    if (error instanceof HttpError) return c.json(error.toBody(), error.status);
    log.error("request failed", { method: c.req.method, path: c.req.path, error });
    return c.json(errorBody("internal_error", "The studio hit an unexpected error. It has been logged."), 500);
  });
  app.notFound((c) => c.json(errorBody("not_found", `Nothing at ${c.req.method} ${c.req.path}.`), 404));

  app.use(async (c, next) => {
    const started = performance.now();
    await next();
    if (c.req.path !== "/healthz") {
      log.info("request", { method: c.req.method, path: c.req.path, status: c.res.status, ms: Math.round(performance.now() - started) });
    }
  });
  app.use(hostCheck(config.host, config.publicUrl));
  app.get("/healthz", (c) => c.json({ ok: true }, 200));

  // The webhook's path token is its credential: no session, no CSRF header (the provider sends neither).
  app.use("/api/studio/webhooks/*", limitBody(256 * 1024));
  app.route("/api/studio/webhooks", webhookRoutes(deps));

  app.use("/api/*", csrfGuard());
  app.use("/api/studio/session", limitBody(SMALL_BODY_BYTES));
  app.use("/api/*", async (c, next) => (c.req.path === "/api/studio/session" ? next() : auth.middleware()(c, next)));
  app.use("/api/ai/*", limitDeclaredLength(uploadLimit));
  app.use("/api/studio/images", limitDeclaredLength(uploadLimit));
  app.use("/api/studio/videos", limitDeclaredLength(uploadLimit));
  app.use("/api/studio/generations/*", limitBody(SMALL_BODY_BYTES));

  app.route("/api/ai", providerRoutes(deps));
  app.route("/api/studio", studioRoutes(deps));

  app.use("/media/*", auth.middleware());
  app.get(
    "/media/*",
    serveStatic({
      root: config.dataDir,
      onFound: (_path, c) => {
        c.header("cache-control", "private, max-age=31536000, immutable");
      },
    }),
  );

  if (distDir && existsSync(path.join(distDir, "index.html"))) {
    app.use("/*", serveStatic({ root: distDir }));
    // Any other page path opens the app; unknown API and media paths keep their JSON 404.
    app.get("/*", async (c, next) => {
      if (c.req.path.startsWith("/api/") || c.req.path.startsWith("/media/")) return next();
      return serveStatic({ root: distDir, rewriteRequestPath: () => "/index.html" })(c, next);
    });
  }

  return app;
}

export type StudioApp = ReturnType<typeof createStudioApp>;
