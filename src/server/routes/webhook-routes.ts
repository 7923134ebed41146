import { Hono } from "hono";
import { HttpError } from "../../api/errors";
import { taskResultSchema } from "../../api/provider";
import type { StudioDeps } from "../studio-deps";

/**
 * The provider's completion webhook. The per-task token in the path is the only credential; the
 * payload is a hint: the task is re-read with the status GET before anything is recorded, so a
 * forged, duplicated or out-of-order delivery cannot change what the ledger says.
 */
export function webhookRoutes({ ledger, service, log }: StudioDeps) {
  return new Hono().post("/:token", async (c) => {
    const generation = ledger.findByWebhookToken(c.req.param("token"));
    if (!generation) throw new HttpError(404, "not_found", "Unknown webhook.");
    const payload = taskResultSchema.safeParse(await c.req.json().catch(() => null));
    if (payload.success && generation.providerTaskId && payload.data.id !== generation.providerTaskId) {
      throw new HttpError(400, "invalid_body", "This delivery is for a different task.");
    }
    const taskCostTime = payload.success ? (payload.data.taskCostTime ?? null) : null;
    void service.refreshVideo(generation.id, { taskCostTime }).catch((error: unknown) => {
      log.warn("status re-read after webhook failed; the reconciler will retry", { generationId: generation.id, error });
    });
    return c.body(null, 204);
  });
}
