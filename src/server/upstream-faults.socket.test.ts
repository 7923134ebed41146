/**
 * The studio against a misbehaving provider, over real sockets: every fault becomes a 502/504 with
 * a clear code within the configured time limit (never a hang), POSTs are sent once, status GETs
 * are retried, failed generations are recorded as failed, and the server keeps answering.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Generation } from "../api/studio";
import { startFaultUpstream, type FaultMode, type FaultUpstream } from "./test/fault-upstream";
import { call, closedPort, errorCodeOf, getGeneration, listGenerations, startSocketStudio, underGcPressure, type SocketStudio } from "./test/socket-harness";

const TIMEOUT_MS = 1000;
const STATUS_TIMEOUT_MS = 500;
const RETRY_DELAYS_MS = [50, 100];
/** Slack on top of a time limit for the studio to notice, answer and for a loaded CI machine. */
const MARGIN_MS = 1500;

const expectations: Array<{ mode: FaultMode; status: 502 | 504; code: string }> = [
  { mode: "timeout", status: 504, code: "upstream_timeout" },
  { mode: "slow-body", status: 504, code: "upstream_timeout" },
  { mode: "reset", status: 502, code: "upstream_unreachable" },
  { mode: "status-500", status: 502, code: "upstream_error" },
  { mode: "html", status: 502, code: "upstream_bad_response" },
  { mode: "bad-json", status: 502, code: "upstream_bad_response" },
  { mode: "wrong-schema", status: 502, code: "upstream_bad_response" },
];

const slowModes = new Set<FaultMode>(["timeout", "slow-body"]);

describe("upstream faults over real sockets", () => {
  let fault: FaultUpstream;
  let studio: SocketStudio;

  beforeAll(async () => {
    fault = await startFaultUpstream({ apiKey: "fault-test-key", timeline: { pendingMs: 60_000, processingMs: 60_000 } });
    studio = await startSocketStudio(
      {
        UPSTREAM_BASE_URL: fault.baseUrl,
        UPSTREAM_API_KEY: fault.apiKey,
        UPSTREAM_TIMEOUT_MS: String(TIMEOUT_MS),
        UPSTREAM_STATUS_TIMEOUT_MS: String(STATUS_TIMEOUT_MS),
      },
      { upstreamRetryDelaysMs: RETRY_DELAYS_MS },
    );
  });

  afterAll(async () => {
    await studio?.close();
    await fault?.close();
  });

  const findByPrompt = async (prompt: string): Promise<Generation | undefined> =>
    (await listGenerations(studio.url, `q=${encodeURIComponent(prompt)}`)).find((generation) => generation.prompt === prompt);

  const expectHealthy = async () => {
    const health = await call(studio.url, "/healthz");
    expect(health.status).toBe(200);
  };

  it("works end to end when the provider behaves (baseline)", async () => {
    fault.setMode("all", "ok");
    const image = await call(studio.url, "/api/studio/images", { method: "POST", body: { prompt: "baseline image", model: "m-image" } });
    expect(image.status).toBe(201);
    expect((image.json as Generation).status).toBe("success");
  });

  it.each(expectations)(
    "$mode: image generation and video submission (both route families) answer $status $code in time, are sent once and recorded as failed",
    async ({ mode, status, code }) => {
      const limit = (slowModes.has(mode) ? TIMEOUT_MS : 0) + MARGIN_MS;
      fault.setMode("image", mode);
      fault.setMode("submit", mode);
      const before = { image: fault.count("image"), submit: fault.count("submit") };
      // The four requests run at once (each meets the fault on its own connection), so a slow fault costs one timeout.
      const requests = [
        { route: "/api/studio/images", prompt: `studio image under ${mode}` },
        { route: "/api/ai/images/generations", prompt: `provider image under ${mode}` },
        { route: "/api/studio/videos", prompt: `studio video under ${mode}` },
        { route: "/api/ai/videos", prompt: `provider video under ${mode}` },
      ];
      // Under GC pressure: a time limit that only works while some object happens to be alive must fail here.
      const responses = await underGcPressure(() =>
        Promise.all(requests.map(({ route, prompt }) => call(studio.url, route, { method: "POST", body: { prompt, model: "m" } }))),
      );
      fault.setMode("all", "ok");

      for (const [index, response] of responses.entries()) {
        const label = requests[index]?.route;
        expect({ label, status: response.status, code: errorCodeOf(response) }).toEqual({ label, status, code });
        expect((response.json as { error: { message: string } }).error.message.length).toBeGreaterThan(10);
        expect(response.ms, label).toBeLessThan(limit);
        if (slowModes.has(mode)) expect(response.ms, label).toBeGreaterThanOrEqual(TIMEOUT_MS - 50);
      }
      // POSTs may bill: each was sent exactly once, never retried.
      expect(fault.count("image") - before.image).toBe(2);
      expect(fault.count("submit") - before.submit).toBe(2);

      for (const { prompt } of requests) {
        const generation = await findByPrompt(prompt);
        expect({ prompt, status: generation?.status, code: generation?.error?.code }).toEqual({ prompt, status: "failed", code });
        expect(generation?.completedAt).not.toBeNull();
      }
      await expectHealthy();
    },
  );

  describe("status GET", () => {
    const attempts = RETRY_DELAYS_MS.length + 1;
    const retryWaits = RETRY_DELAYS_MS.reduce((sum, wait) => sum + wait, 0);

    async function submitVideo(prompt: string) {
      fault.setMode("all", "ok");
      const response = await call(studio.url, "/api/studio/videos", { method: "POST", body: { prompt, model: "m-video" } });
      expect(response.status).toBe(202);
      const generation = response.json as Generation;
      expect(generation.providerTaskId).toMatch(/^\d+$/);
      return { generation, taskId: generation.providerTaskId ?? "" };
    }

    it.each([
      { mode: "status-500" as const, status: 502, code: "upstream_error", slow: false },
      { mode: "reset" as const, status: 502, code: "upstream_unreachable", slow: false },
      { mode: "timeout" as const, status: 504, code: "upstream_timeout", slow: true },
      { mode: "slow-body" as const, status: 504, code: "upstream_timeout", slow: true },
    ])("is retried under $mode and ends in $status $code, leaving the task unfailed", async ({ mode, status, code, slow }) => {
      const { generation, taskId } = await submitVideo(`status read under ${mode}`);
      fault.setMode("status", mode);
      const path = `/api/ai/videos/${taskId}`;
      const before = fault.countPath("GET", path);
      const response = await underGcPressure(() => call(studio.url, path));
      fault.setMode("status", "ok");

      expect(response.status).toBe(status);
      expect(errorCodeOf(response)).toBe(code);
      expect(fault.countPath("GET", path) - before).toBe(attempts);
      expect(response.ms).toBeLessThan((slow ? attempts * STATUS_TIMEOUT_MS : 0) + retryWaits + MARGIN_MS);
      // A status read that failed says nothing about the task: it stays pending for the reconciler.
      expect((await getGeneration(studio.url, generation.id)).status).toBe("pending");
      await expectHealthy();
    });

    it("passes the provider's 404 for an unknown task through without retrying", async () => {
      fault.setMode("status", "ok");
      const path = "/api/ai/videos/4242424242";
      const response = await call(studio.url, path);
      expect(response.status).toBe(404);
      expect(errorCodeOf(response)).toBe("task_not_found");
      expect(fault.countPath("GET", path)).toBe(1);
    });

    it("retries a status GET for a task the ledger does not know, too", async () => {
      fault.setMode("status", "status-500");
      const path = "/api/ai/videos/5151515151";
      const response = await call(studio.url, path);
      fault.setMode("status", "ok");
      expect(response.status).toBe(502);
      expect(errorCodeOf(response)).toBe("upstream_error");
      expect(fault.countPath("GET", path)).toBe(attempts);
    });
  });
});

describe("a provider with nothing listening", () => {
  let studio: SocketStudio;

  beforeAll(async () => {
    const port = await closedPort();
    studio = await startSocketStudio(
      {
        UPSTREAM_BASE_URL: `http://127.0.0.1:${port}`,
        UPSTREAM_API_KEY: "nobody-home",
        UPSTREAM_TIMEOUT_MS: String(TIMEOUT_MS),
        UPSTREAM_STATUS_TIMEOUT_MS: String(STATUS_TIMEOUT_MS),
      },
      { upstreamRetryDelaysMs: RETRY_DELAYS_MS },
    );
  });
  afterAll(async () => {
    await studio?.close();
  });

  it("answers 502 upstream_unreachable quickly for images, videos and status reads, and stays up", async () => {
    const image = await call(studio.url, "/api/studio/images", { method: "POST", body: { prompt: "unreachable image", model: "m" } });
    expect(image.status).toBe(502);
    expect(errorCodeOf(image)).toBe("upstream_unreachable");
    expect(image.ms).toBeLessThan(MARGIN_MS);

    const video = await call(studio.url, "/api/ai/videos", { method: "POST", body: { prompt: "unreachable video", model: "m" } });
    expect(video.status).toBe(502);
    expect(errorCodeOf(video)).toBe("upstream_unreachable");
    expect(video.ms).toBeLessThan(MARGIN_MS);

    const status = await call(studio.url, "/api/ai/videos/777");
    expect(status.status).toBe(502);
    expect(errorCodeOf(status)).toBe("upstream_unreachable");
    expect(status.ms).toBeLessThan(MARGIN_MS);

    const failed = await listGenerations(studio.url, "status=failed");
    expect(failed.map((generation) => [generation.prompt, generation.error?.code]).sort()).toEqual([
      ["unreachable image", "upstream_unreachable"],
      ["unreachable video", "upstream_unreachable"],
    ]);
    expect((await call(studio.url, "/healthz")).status).toBe(200);
  });
});
