/**
 * Live updates over real sockets: the SSE stream (GET /api/studio/events) carries a video's
 * progress to every open tab, and many clients polling the provider-compatible status route are
 * coalesced into at most about one provider status GET per polling interval.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POLL_INTERVAL_MS, videoTaskRecordSchema, type VideoTaskStatus } from "../api/provider";
import { generationSchema, type Generation } from "../api/studio";
import { startFaultUpstream, type FaultUpstream } from "./test/fault-upstream";
import { call, isMirrored, openSse, sleep, startSocketStudio, waitFor, type SocketStudio, type SseReader } from "./test/socket-harness";

const ORDER: Record<VideoTaskStatus, number> = { pending: 0, processing: 1, success: 2, failed: 2 };

function generationEvents(reader: SseReader, id: string): Generation[] {
  return reader.events
    .filter((event) => event.event === "generation")
    .map((event) => generationSchema.parse(JSON.parse(event.data)))
    .filter((generation) => generation.id === id);
}

describe("the event stream", () => {
  let fault: FaultUpstream;
  let studio: SocketStudio;

  beforeAll(async () => {
    fault = await startFaultUpstream({ apiKey: "sse-key", timeline: { pendingMs: 300, processingMs: 700 } });
    studio = await startSocketStudio({ UPSTREAM_BASE_URL: fault.baseUrl, UPSTREAM_API_KEY: fault.apiKey, RECONCILE_INTERVAL_MS: "200" });
  });
  afterAll(async () => {
    await studio?.close();
    await fault?.close();
  });

  it("sends every open tab the video's progress up to success with its mirrored files, then its deletion", async () => {
    const tabs = await Promise.all([openSse(`${studio.url}/api/studio/events`), openSse(`${studio.url}/api/studio/events`)]);
    try {
      for (const tab of tabs) {
        expect(tab.status).toBe(200);
        expect(tab.headers.get("content-type")).toContain("text/event-stream");
      }
      await waitFor(() => tabs.every((tab) => tab.events[0]?.event === "ready"), Boolean, 3000, 20);

      const submitted = await call(studio.url, "/api/studio/videos", { method: "POST", body: { prompt: "live video", model: "m-video" } });
      expect(submitted.status).toBe(202);
      const id = (submitted.json as Generation).id;

      for (const tab of tabs) {
        const seen = await waitFor(() => generationEvents(tab, id), (list) => list.some(isMirrored), 10_000, 50);
        const statuses = seen.map((generation) => generation.status);
        expect(statuses[0]).toBe("pending");
        expect(statuses).toContain("processing");
        expect(statuses).toContain("success");
        // Never backwards, and nothing after success but success (mirroring progress).
        for (let index = 1; index < statuses.length; index++) {
          expect(ORDER[statuses[index] ?? "pending"]).toBeGreaterThanOrEqual(ORDER[statuses[index - 1] ?? "pending"]);
        }
        const last = seen.at(-1);
        expect(last && isMirrored(last)).toBe(true);
        expect(last?.outputs[0]?.url).toMatch(/^\/media\//);
        // Event ids let a reconnecting browser tell where it was.
        for (const event of tab.events.filter((item) => item.event === "generation" && item.data.includes(id))) {
          expect(event.id).toMatch(new RegExp(`^${id}:\\d+$`));
        }
      }

      const deleted = await call(studio.url, `/api/studio/generations/${id}`, { method: "DELETE" });
      expect(deleted.status).toBe(204);
      for (const tab of tabs) {
        await waitFor(
          () => tab.events.filter((event) => event.event === "deleted").map((event) => JSON.parse(event.data) as { id: string }),
          (list) => list.some((event) => event.id === id),
          3000,
          20,
        );
      }
    } finally {
      await Promise.all(tabs.map((tab) => tab.close()));
    }
    // A closed tab is unsubscribed: no listener leaks.
    await waitFor(() => studio.deps.events.subscriberCount, (count) => count === 0, 3000, 20);
  });
});

describe("coalesced status polling", () => {
  const CLIENTS = 20;
  const POLL_EVERY_MS = 100;
  const DURATION_MS = 6000;
  let fault: FaultUpstream;
  let studio: SocketStudio;

  beforeAll(async () => {
    // pending for 1 s, then processing for the rest of the test (success comes at 12 s).
    fault = await startFaultUpstream({ apiKey: "poll-key", timeline: { pendingMs: 1000, processingMs: 11_000 } });
    // The studio's default: the spec's recommended 5 s polling interval.
    studio = await startSocketStudio({ UPSTREAM_BASE_URL: fault.baseUrl, UPSTREAM_API_KEY: fault.apiKey });
    expect(studio.deps.pollIntervalMs).toBe(POLL_INTERVAL_MS);
  });
  afterAll(async () => {
    await studio?.close();
    await fault?.close();
  });

  it(`${CLIENTS} clients polling every ${POLL_EVERY_MS} ms cost the provider about one status GET per ${POLL_INTERVAL_MS / 1000} s`, async () => {
    const submitted = await call(studio.url, "/api/ai/videos", { method: "POST", body: { prompt: "popular video", model: "m-video" } });
    expect(submitted.status).toBe(200);
    const taskId = (submitted.json as { id: string }).id;
    const statusPath = `/api/ai/videos/${taskId}`;
    const started = Date.now();
    const end = started + DURATION_MS;

    const client = async () => {
      const seen: VideoTaskStatus[] = [];
      for (let round = 0; round < DURATION_MS / POLL_EVERY_MS + 10 && Date.now() < end; round++) {
        const response = await call(studio.url, statusPath);
        expect(response.status).toBe(200);
        const record = videoTaskRecordSchema.parse(response.json);
        expect(record.id).toBe(taskId);
        seen.push(record.status);
        await sleep(POLL_EVERY_MS);
      }
      return seen;
    };
    const results = await Promise.all(Array.from({ length: CLIENTS }, client));
    const elapsed = Date.now() - started;

    const answered = results.reduce((sum, seen) => sum + seen.length, 0);
    expect(answered).toBeGreaterThan(CLIENTS * 20);
    const upstreamReads = fault.countPath("GET", statusPath);
    const intervals = Math.ceil(elapsed / POLL_INTERVAL_MS);
    expect(upstreamReads).toBeGreaterThanOrEqual(1);
    expect(upstreamReads).toBeLessThanOrEqual(intervals + 1);
    // Reads are spaced by the interval, not bunched up.
    const readTimes = fault.requests.filter((request) => request.path === statusPath).map((request) => request.at);
    for (let index = 1; index < readTimes.length; index++) {
      expect((readTimes[index] ?? 0) - (readTimes[index - 1] ?? 0)).toBeGreaterThanOrEqual(POLL_INTERVAL_MS - 1100);
    }
    // Each client saw the task move forward (pending, then processing after the 5 s read), never back.
    for (const seen of results) {
      for (let index = 1; index < seen.length; index++) {
        expect(ORDER[seen[index] ?? "pending"]).toBeGreaterThanOrEqual(ORDER[seen[index - 1] ?? "pending"]);
      }
    }
    expect(results.some((seen) => seen.includes("processing"))).toBe(true);
  });
});
