import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { generationSchema } from "../api/studio";
import { openLedgerDatabase } from "./ledger/database";
import { createStudioHarness, SMALL_VIDEO_SIZE, waitFor, type StudioHarness } from "./test/studio-harness";

describe("reconciler deadlines", () => {
  let harness: StudioHarness;
  afterEach(async () => {
    await harness.close();
  });

  /** Submits a video and lets the provider finish it without the studio hearing of it. */
  async function videoFinishedUnseen(prompt: string) {
    const response = await harness.postForm(
      "/api/studio/videos",
      (() => {
        const form = new FormData();
        form.set("prompt", prompt);
        form.set("model", "sandbox-video-1");
        form.set("size", SMALL_VIDEO_SIZE);
        return form;
      })(),
    );
    const generation = generationSchema.parse(await response.json());
    await waitFor(
      () => harness.deps.upstream.getVideo(generation.providerTaskId ?? ""),
      (record) => record.status === "success" || record.status === "failed",
      10_000,
    );
    return generation;
  }

  /** What a long stop does to a task: its deadline passes before the next poll. */
  function passDeadline(id: string) {
    const db = openLedgerDatabase(path.join(harness.dataDir, "ledger.sqlite"));
    db.prepare("UPDATE generations SET deadline_at = 1, next_poll_at = ? WHERE id = ?").run(Date.now() + 3_600_000, id);
    db.close();
  }

  it("asks the provider before giving up on a task past its deadline, and keeps a finished video", async () => {
    harness = await createStudioHarness();
    const generation = await videoFinishedUnseen("finished while the studio was away");
    passDeadline(generation.id);

    await harness.studio.reconciler.tick();

    const after = harness.ledger.getGeneration(generation.id);
    expect(after?.status).toBe("success");
    expect(after?.error).toBeNull();
  });

  it("marks a task failed with code timeout when the provider still has not finished it", async () => {
    harness = await createStudioHarness({ sandbox: { pendingMs: 60_000 } });
    const response = await harness.postJson("/api/studio/videos", { prompt: "never done", model: "sandbox-video-1" });
    const generation = generationSchema.parse(await response.json());
    passDeadline(generation.id);

    await harness.studio.reconciler.tick();

    const after = harness.ledger.getGeneration(generation.id);
    expect(after?.status).toBe("failed");
    expect(after?.error?.code).toBe("timeout");
  });
});
