/**
 * The webhook receiver (POST /api/studio/webhooks/:token) over real sockets. A delivery is only a
 * hint: the studio re-reads the task with the status GET, so forged, duplicated and out-of-order
 * deliveries cannot change what the ledger says, and the provider gets its 2xx at once.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { TaskResult } from "../api/provider";
import type { Generation } from "../api/studio";
import { startFaultUpstream, type FaultUpstream } from "./test/fault-upstream";
import { call, errorCodeOf, getGeneration, isMirrored, sleep, startSocketStudio, waitFor, webhookTokenOf, type SocketStudio } from "./test/socket-harness";

const STUDIO_TOKEN = "webhook-test-studio-token";
const AUTH = { authorization: `Bearer ${STUDIO_TOKEN}` };

describe("webhook receiver over real sockets", () => {
  let fault: FaultUpstream;
  let studio: SocketStudio;

  beforeAll(async () => {
    // Tasks stay where the tests pin them (the timeline alone would take a minute to finish).
    fault = await startFaultUpstream({ apiKey: "webhook-provider-key", timeline: { pendingMs: 60_000, processingMs: 60_000 } });
    studio = await startSocketStudio(
      {
        UPSTREAM_BASE_URL: fault.baseUrl,
        UPSTREAM_API_KEY: fault.apiKey,
        // Sign-in is on: the webhook must still work without it (the provider has no studio token).
        STUDIO_TOKEN,
        UPSTREAM_STATUS_TIMEOUT_MS: "1000",
        // The reconciler polls every 5 s (the default); each test finishes well within one interval
        // of its task's submission, so only webhooks make the studio read a task's status here.
        RECONCILE_INTERVAL_MS: "5000",
      },
      { upstreamRetryDelaysMs: [50, 50] },
    );
  });

  afterAll(async () => {
    await studio?.close();
    await fault?.close();
  });

  beforeEach(() => {
    fault.setMode("all", "ok");
  });

  async function submitVideo(prompt: string) {
    const response = await call(studio.url, "/api/studio/videos", { method: "POST", headers: AUTH, body: { prompt, model: "m-video" } });
    expect(response.status).toBe(202);
    const generation = response.json as Generation;
    const taskId = generation.providerTaskId ?? "";
    expect(taskId).toMatch(/^\d+$/);
    return { generation, taskId, token: webhookTokenOf(studio.dataDir, generation.id), statusPath: `/api/ai/videos/${taskId}` };
  }

  const payload = (taskId: string, status: "success" | "failed", extra: Partial<TaskResult> = {}): TaskResult => ({
    id: taskId,
    object: "task_result",
    created: Math.floor(Date.now() / 1000),
    status,
    result: { images: status === "success" ? [{ fileUrl: `${fault.baseUrl}/files/forged.mp4`, fileType: "mp4" }] : [] },
    error: status === "success" ? null : "it broke",
    ...extra,
  });

  /** POSTs a delivery the way a provider does: no studio token, no CSRF header. */
  const deliver = (token: string, body: unknown) =>
    call(studio.url, `/api/studio/webhooks/${encodeURIComponent(token)}`, { method: "POST", body, headers: { "x-studio-request": "" } });

  const generationNow = (id: string) => getGeneration(studio.url, id, AUTH);

  it("answers 404 with an error body for an unknown token, and asks the provider nothing", async () => {
    const before = fault.count("status");
    const response = await deliver("no-such-token-0123456789", payload("123", "success"));
    expect(response.status).toBe(404);
    expect(errorCodeOf(response)).toBe("not_found");
    expect(response.headers.get("content-type")).toContain("application/json");
    await sleep(100);
    expect(fault.count("status")).toBe(before);
  });

  it("refuses a delivery for another task id with 400", async () => {
    const { token } = await submitVideo("mismatched delivery");
    const response = await deliver(token, payload("999999", "success"));
    expect(response.status).toBe(400);
    expect(errorCodeOf(response)).toBe("invalid_body");
  });

  it("does not believe a forged 'success': the task is re-read and stays processing", async () => {
    const { generation, taskId, token, statusPath } = await submitVideo("forged success");
    fault.setTaskStatus(taskId, "processing");
    const reads = fault.countPath("GET", statusPath);

    const response = await deliver(token, payload(taskId, "success"));
    expect(response.status).toBeGreaterThanOrEqual(200);
    expect(response.status).toBeLessThan(300);

    // The studio asked the provider...
    await waitFor(() => fault.countPath("GET", statusPath), (count) => count > reads, 5000, 20);
    // ...and recorded what the provider said, not what the delivery claimed.
    const after = await waitFor(() => generationNow(generation.id), (current) => current.status !== "pending", 5000, 20);
    expect(after.status).toBe("processing");
    expect(after.outputs).toEqual([]);
    expect(after.statusHistory.map((change) => change.status)).toEqual(["pending", "processing"]);
    // The forged file URL was never fetched.
    expect(fault.requests.some((request) => request.path.includes("forged"))).toBe(false);
  });

  it("a garbage body still only triggers a re-read", async () => {
    const { generation, taskId, token, statusPath } = await submitVideo("garbage delivery");
    fault.setTaskStatus(taskId, "pending");
    const reads = fault.countPath("GET", statusPath);
    const response = await deliver(token, "{not json");
    expect(response.status).toBeLessThan(300);
    await waitFor(() => fault.countPath("GET", statusPath), (count) => count > reads, 5000, 20);
    await sleep(50);
    expect((await generationNow(generation.id)).status).toBe("pending");
  });

  it("is idempotent: the same success delivered 5 times gives one success and one set of files", async () => {
    const { generation, taskId, token } = await submitVideo("delivered five times");
    fault.setTaskStatus(taskId, "success");
    const body = payload(taskId, "success", { result: { images: [{ fileUrl: fault.videoUrls(taskId).url, fileType: "mp4" }] } });

    const responses = await Promise.all(Array.from({ length: 5 }, () => deliver(token, body)));
    for (const response of responses) expect(response.status).toBe(204);
    const done = await waitFor(() => generationNow(generation.id), isMirrored, 10_000, 50);

    // Later duplicates, after the task is final.
    for (let index = 0; index < 5; index++) expect((await deliver(token, body)).status).toBe(204);
    await sleep(200);
    const final = await generationNow(generation.id);
    expect(final.statusHistory.filter((change) => change.status === "success")).toHaveLength(1);
    expect(final.outputs).toHaveLength(1);
    expect(final.outputs).toEqual(done.outputs);
    expect(final.completedAt).toBe(done.completedAt);
    // One download of the video and of its cover, however many deliveries.
    expect(fault.countPath("GET", `/files/video-${taskId}.mp4`)).toBe(1);
    expect(fault.countPath("GET", `/files/video-${taskId}-cover.png`)).toBe(1);
  });

  it("never moves a finished task back: a late 'failed' or 'processing' delivery changes nothing", async () => {
    const { generation, taskId, token, statusPath } = await submitVideo("out of order");
    fault.setTaskStatus(taskId, "success");
    await deliver(token, payload(taskId, "success"));
    const done = await waitFor(() => generationNow(generation.id), isMirrored, 10_000, 50);

    // Now the provider itself flips (a bug on its side) and sends deliveries out of order.
    fault.setTaskStatus(taskId, "failed");
    const reads = fault.countPath("GET", statusPath);
    // taskCostTime makes the studio re-read even a finished task (to fill that field in).
    expect((await deliver(token, payload(taskId, "failed", { taskCostTime: 12 }))).status).toBe(204);
    await waitFor(() => fault.countPath("GET", statusPath), (count) => count > reads, 5000, 20);
    expect((await deliver(token, { ...payload(taskId, "success"), status: "processing" })).status).toBe(204);
    expect((await deliver(token, payload(taskId, "failed"))).status).toBe(204);
    await sleep(300);

    const final = await generationNow(generation.id);
    expect(final.status).toBe("success");
    expect(final.error).toBeNull();
    expect(final.outputs).toEqual(done.outputs);
    expect(final.statusHistory.map((change) => change.status)).toEqual(done.statusHistory.map((change) => change.status));
    expect(final.statusHistory.at(-1)?.status).toBe("success");
  });

  it("answers 2xx at once even when the provider's status GET hangs", async () => {
    const { generation, taskId, token, statusPath } = await submitVideo("slow provider");
    fault.setTaskStatus(taskId, "success");
    fault.setMode("status", "timeout");
    // Warm the route up, so the timing below is the receiver's, not a first-request cost.
    await deliver("warm-up-token-0000000000", payload(taskId, "success"));

    const timings: number[] = [];
    for (let index = 0; index < 3; index++) {
      const response = await deliver(token, payload(taskId, "success"));
      expect(response.status).toBe(204);
      timings.push(response.ms);
    }
    expect(Math.max(...timings)).toBeLessThan(200);
    // The re-read is under way in the background (and hangs at the provider)...
    await waitFor(() => fault.countPath("GET", statusPath), (count) => count >= 1, 3000, 20);
    expect((await call(studio.url, "/healthz")).status).toBe(200);
    expect((await generationNow(generation.id)).status).toBe("pending");

    // ...and once the provider answers again, the next delivery completes the task.
    fault.setMode("status", "ok");
    await sleep(1200); // let the hung read time out (UPSTREAM_STATUS_TIMEOUT_MS=1000) and its retries finish
    expect((await deliver(token, payload(taskId, "success"))).status).toBe(204);
    const done = await waitFor(() => generationNow(generation.id), isMirrored, 10_000, 50);
    expect(done.statusHistory.filter((change) => change.status === "success")).toHaveLength(1);
  });
});

describe("webhooks from the embedded sandbox", () => {
  let studio: SocketStudio;

  beforeAll(async () => {
    // The reconciler polls every 5 s; a video done in well under that was finished by its webhook.
    studio = await startSocketStudio({}, { sandboxOverrides: { pendingMs: 50, processingMs: 300, videoDurationSeconds: 1 } });
  });
  afterAll(async () => {
    await studio?.close();
  });

  it("the provider's own delivery completes the task long before the next poll", async () => {
    const started = Date.now();
    const response = await call(studio.url, "/api/studio/videos", { method: "POST", body: { prompt: "finished by webhook", model: "sandbox-video-1", size: "128x72" } });
    expect(response.status).toBe(202);
    const id = (response.json as Generation).id;
    const done = await waitFor(() => getGeneration(studio.url, id), isMirrored, 4000, 50);
    expect((done.completedAt ?? Infinity) - started).toBeLessThan(studio.deps.pollIntervalMs - 500);
    expect(done.statusHistory.map((change) => change.status)).toEqual(["pending", "success"]);
  });
});
