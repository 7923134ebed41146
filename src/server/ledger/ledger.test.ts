import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Database } from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { GenerationListQuery } from "../../api/studio";
import { generationSchema } from "../../api/studio";
import { openLedgerDatabase } from "./database";
import { GenerationNotFoundError, InvalidCursorError, Ledger, OutputNotFoundError } from "./ledger";
import type { NewGeneration } from "./ledger";
import { migrations } from "./migrations";

let dataDir: string;
let dbPath: string;
let db: Database;
let ledger: Ledger;

beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), "ledger-test-"));
  dbPath = join(dataDir, "nested", "ledger.sqlite");
  db = openLedgerDatabase(dbPath);
  ledger = new Ledger(db);
});

afterEach(() => {
  if (db.open) db.close();
  rmSync(dataDir, { recursive: true, force: true });
});

function reopen(): void {
  db.close();
  db = openLedgerDatabase(dbPath);
  ledger = new Ledger(db);
}

function newGeneration(overrides: Partial<NewGeneration> = {}): NewGeneration {
  return { kind: "image", prompt: "a red fox", model: "image-model", params: {}, references: [], ...overrides };
}

function list(query: Partial<GenerationListQuery> = {}) {
  return ledger.listGenerations({ limit: 50, ...query });
}

function listIds(query: Partial<GenerationListQuery> = {}): string[] {
  return list({ limit: 200, ...query }).items.map((item) => item.id);
}

describe("creating and reading generations", () => {
  it("returns what was created, with references, params and the initial status", () => {
    const created = ledger.createGeneration({
      kind: "video",
      prompt: "a boat at dawn",
      model: "video-model",
      params: { size: "1280x720" },
      references: [
        { id: "ref-1", mime: "image/png", name: "boat.png", bytes: 1234, sourceUrl: null, filePath: "references/ref-1.png" },
        {
          id: "ref-2",
          mime: "image/jpeg",
          name: "sky.jpg",
          bytes: 99,
          sourceUrl: "https://example.com/sky.jpg",
          filePath: "references/ref-2.jpg",
        },
      ],
      webhookToken: "token-1",
      deadlineAt: 5000,
      now: 1000,
    });

    expect(ledger.getGeneration(created.id)).toEqual(created);
    expect(generationSchema.parse(created)).toEqual(created);
    expect(created).toMatchObject({
      kind: "video",
      status: "pending",
      prompt: "a boat at dawn",
      model: "video-model",
      params: { size: "1280x720" },
      outputs: [],
      providerTaskId: null,
      error: null,
      favourite: false,
      createdAt: 1000,
      updatedAt: 1000,
      completedAt: null,
      taskCostTime: null,
      statusHistory: [{ status: "pending", at: 1000 }],
    });
    expect(created.references).toEqual([
      { id: "ref-1", url: "/api/studio/references/ref-1", mime: "image/png", name: "boat.png", bytes: 1234, sourceUrl: null },
      {
        id: "ref-2",
        url: "/api/studio/references/ref-2",
        mime: "image/jpeg",
        name: "sky.jpg",
        bytes: 99,
        sourceUrl: "https://example.com/sky.jpg",
      },
    ]);
    expect(ledger.getReferenceFile("ref-2")).toEqual({ mime: "image/jpeg", name: "sky.jpg", filePath: "references/ref-2.jpg" });
    expect(ledger.getReferenceFile("missing")).toBeNull();
  });

  it("finds a generation by webhook token and by provider task id", () => {
    const created = ledger.createGeneration(newGeneration({ kind: "video", webhookToken: "secret-token" }));
    const attached = ledger.attachProviderTask(created.id, "4242");

    expect(attached.providerTaskId).toBe("4242");
    expect(ledger.findByWebhookToken("secret-token")?.id).toBe(created.id);
    expect(ledger.findByProviderTaskId("4242")?.id).toBe(created.id);
    expect(ledger.findByWebhookToken("other")).toBeNull();
    expect(ledger.findByProviderTaskId("1")).toBeNull();
    expect(ledger.getGeneration("missing")).toBeNull();
    expect(() => ledger.attachProviderTask("missing", "1")).toThrow(GenerationNotFoundError);
  });

  it("refuses a second generation with the same webhook token", () => {
    ledger.createGeneration(newGeneration({ webhookToken: "same" }));
    expect(() => ledger.createGeneration(newGeneration({ webhookToken: "same" }))).toThrow(/UNIQUE/);
  });

  it("refuses file paths that could escape the data dir", () => {
    const reference = { id: "r", mime: "image/png", name: "x.png", bytes: 1, sourceUrl: null };
    for (const filePath of ["/etc/passwd", "../secret.png", "a//b.png", "C:/x.png"]) {
      expect(() => ledger.createGeneration(newGeneration({ references: [{ ...reference, filePath }] }))).toThrow(/relative/);
    }
    expect(listIds()).toEqual([]);
  });
});

describe("status transitions", () => {
  it("moves forward pending -> processing -> success and records each change once", () => {
    const { id } = ledger.createGeneration(newGeneration({ kind: "video", now: 100 }));

    expect(ledger.transition(id, "processing", { now: 200 }).changed).toBe(true);
    expect(ledger.transition(id, "processing", { now: 250 }).changed).toBe(false);
    const done = ledger.transition(id, "success", {
      now: 300,
      taskCostTime: 12.5,
      outputs: [{ index: 0, providerUrl: "https://cdn.example.com/v.mp4", providerCoverUrl: null, mime: "video/mp4" }],
    });

    expect(done.changed).toBe(true);
    expect(done.generation).toMatchObject({ status: "success", completedAt: 300, updatedAt: 300, taskCostTime: 12.5, error: null });
    expect(done.generation.statusHistory).toEqual([
      { status: "pending", at: 100 },
      { status: "processing", at: 200 },
      { status: "success", at: 300 },
    ]);
  });

  it("allows pending straight to a terminal state", () => {
    const { id } = ledger.createGeneration(newGeneration({ now: 1 }));
    const failed = ledger.transition(id, "failed", { now: 2, error: { code: "content_policy", message: "Refused." } });

    expect(failed.changed).toBe(true);
    expect(failed.generation).toMatchObject({
      status: "failed",
      completedAt: 2,
      error: { code: "content_policy", message: "Refused." },
      statusHistory: [
        { status: "pending", at: 1 },
        { status: "failed", at: 2 },
      ],
    });
  });

  it("treats a duplicate terminal delivery as a no-op", () => {
    const { id } = ledger.createGeneration(newGeneration({ kind: "video", now: 1 }));
    const outputs = [{ index: 0, providerUrl: "https://cdn.example.com/a.mp4", providerCoverUrl: null, mime: "video/mp4" }];
    ledger.transition(id, "success", { now: 2, outputs });
    const again = ledger.transition(id, "success", {
      now: 3,
      outputs: [{ index: 0, providerUrl: "https://cdn.example.com/other.mp4", providerCoverUrl: null, mime: "video/mp4" }],
    });

    expect(again.changed).toBe(false);
    expect(again.generation.outputs.map((output) => output.url)).toEqual(["https://cdn.example.com/a.mp4"]);
    expect(again.generation.completedAt).toBe(2);
    expect(again.generation.statusHistory).toHaveLength(2);
  });

  it("fills in a missing taskCostTime from a later duplicate webhook without changing anything else", () => {
    const { id } = ledger.createGeneration(newGeneration({ kind: "video", now: 1 }));
    ledger.transition(id, "success", { now: 2 });
    const webhook = ledger.transition(id, "success", { now: 3, taskCostTime: 8 });

    expect(webhook.changed).toBe(false);
    expect(webhook.generation).toMatchObject({ status: "success", taskCostTime: 8, completedAt: 2 });
    expect(webhook.generation.statusHistory).toHaveLength(2);
  });

  it("never leaves success: a later failed or processing is ignored", () => {
    const { id } = ledger.createGeneration(newGeneration({ now: 1 }));
    ledger.transition(id, "success", { now: 2 });

    const failed = ledger.transition(id, "failed", { now: 3, error: { code: "x", message: "late" } });
    const processing = ledger.transition(id, "processing", { now: 4 });

    expect(failed.changed).toBe(false);
    expect(processing.changed).toBe(false);
    expect(processing.generation).toMatchObject({ status: "success", error: null, completedAt: 2 });
    expect(processing.generation.statusHistory.map((change) => change.status)).toEqual(["pending", "success"]);
  });

  it("never leaves failed: a later success is ignored", () => {
    const { id } = ledger.createGeneration(newGeneration({ now: 1 }));
    ledger.transition(id, "failed", { now: 2, error: { code: "timeout", message: "Took too long." } });
    const success = ledger.transition(id, "success", {
      now: 3,
      outputs: [{ index: 0, providerUrl: "https://cdn.example.com/a.png", providerCoverUrl: null, mime: "image/png" }],
    });

    expect(success.changed).toBe(false);
    expect(success.generation).toMatchObject({ status: "failed", outputs: [], error: { code: "timeout", message: "Took too long." } });
  });

  it("ignores processing -> pending", () => {
    const { id } = ledger.createGeneration(newGeneration({ status: "processing", now: 1 }));
    const result = ledger.transition(id, "pending", { now: 2 });

    expect(result.changed).toBe(false);
    expect(result.generation.status).toBe("processing");
    expect(result.generation.statusHistory).toEqual([{ status: "processing", at: 1 }]);
  });

  it("records a generation created already terminal as completed", () => {
    const created = ledger.createGeneration(newGeneration({ status: "failed", now: 7 }));
    expect(created).toMatchObject({ status: "failed", completedAt: 7, statusHistory: [{ status: "failed", at: 7 }] });
    expect(ledger.transition(created.id, "success").changed).toBe(false);
  });

  it("throws for an unknown generation", () => {
    expect(() => ledger.transition("missing", "success")).toThrow(GenerationNotFoundError);
  });
});

describe("outputs", () => {
  it("shows provider URLs until mirrored, then studio media URLs", () => {
    const { id } = ledger.createGeneration(newGeneration({ kind: "video" }));
    ledger.transition(id, "success", {
      outputs: [
        { index: 0, providerUrl: "https://cdn.example.com/0.mp4", providerCoverUrl: "https://cdn.example.com/0.jpg", mime: "video/mp4" },
        { index: 1, providerUrl: "https://cdn.example.com/1.mp4", providerCoverUrl: null, mime: "video/mp4" },
      ],
    });

    expect(ledger.getGeneration(id)?.outputs).toEqual([
      {
        index: 0,
        url: "https://cdn.example.com/0.mp4",
        thumbnailUrl: null,
        coverUrl: "https://cdn.example.com/0.jpg",
        mime: "video/mp4",
        width: null,
        height: null,
      },
      { index: 1, url: "https://cdn.example.com/1.mp4", thumbnailUrl: null, coverUrl: null, mime: "video/mp4", width: null, height: null },
    ]);

    const mirrored = ledger.recordMirroredOutput(id, {
      index: 0,
      filePath: `media/${id}/0 final#1.mp4`,
      coverPath: `media/${id}/0-cover.jpg`,
      thumbnailPath: `media/${id}/0-thumb.webp`,
      width: 1280,
      height: 720,
    });

    expect(mirrored.outputs[0]).toEqual({
      index: 0,
      url: `/media/${id}/0%20final%231.mp4`,
      thumbnailUrl: `/media/${id}/0-thumb.webp`,
      coverUrl: `/media/${id}/0-cover.jpg`,
      mime: "video/mp4",
      width: 1280,
      height: 720,
    });
    expect(mirrored.outputs[1]?.url).toBe("https://cdn.example.com/1.mp4");
    expect(ledger.getStoredOutputs(id)[0]).toEqual({
      index: 0,
      providerUrl: "https://cdn.example.com/0.mp4",
      providerCoverUrl: "https://cdn.example.com/0.jpg",
      mime: "video/mp4",
      filePath: `media/${id}/0 final#1.mp4`,
      coverPath: `media/${id}/0-cover.jpg`,
      thumbnailPath: `media/${id}/0-thumb.webp`,
      width: 1280,
      height: 720,
    });
  });

  it("keeps a recorded thumbnail when a later record leaves it null", () => {
    const { id } = ledger.createGeneration(newGeneration());
    ledger.transition(id, "success", {
      outputs: [{ index: 0, providerUrl: "https://cdn.example.com/0.png", providerCoverUrl: null, mime: "image/png" }],
    });
    ledger.recordMirroredOutput(id, { index: 0, filePath: "media/m/0.png", coverPath: null, thumbnailPath: "media/m/0.webp", width: 10, height: 20 });
    const again = ledger.recordMirroredOutput(id, {
      index: 0,
      filePath: "media/m/0.png",
      coverPath: null,
      thumbnailPath: null,
      width: null,
      height: null,
    });

    expect(again.outputs[0]).toMatchObject({ url: "/media/m/0.png", thumbnailUrl: "/media/m/0.webp", width: 10, height: 20 });
  });

  it("refuses to record a mirror for an unknown generation or output", () => {
    const { id } = ledger.createGeneration(newGeneration());
    const mirror = { index: 3, filePath: "m/3.png", coverPath: null, thumbnailPath: null, width: null, height: null };
    expect(() => ledger.recordMirroredOutput(id, mirror)).toThrow(OutputNotFoundError);
    expect(() => ledger.recordMirroredOutput("missing", mirror)).toThrow(GenerationNotFoundError);
  });
});

describe("listGenerations", () => {
  it("walks every item exactly once, newest first, across pages with equal created_at", () => {
    const created: { id: string; createdAt: number }[] = [];
    for (let i = 0; i < 23; i += 1) {
      const generation = ledger.createGeneration(newGeneration({ now: 1000 + Math.floor(i / 5) }));
      created.push({ id: generation.id, createdAt: generation.createdAt });
    }
    const expected = created
      .sort((a, b) => b.createdAt - a.createdAt || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0))
      .map((item) => item.id);

    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = list({ limit: 4, cursor });
      expect(page.items.length).toBeLessThanOrEqual(4);
      seen.push(...page.items.map((item) => item.id));
      cursor = page.nextCursor ?? undefined;
      pages += 1;
    } while (cursor !== undefined);

    expect(seen).toEqual(expected);
    expect(pages).toBe(6);
  });

  it("returns a null cursor when the last page is exactly full", () => {
    for (let i = 0; i < 4; i += 1) ledger.createGeneration(newGeneration({ now: i }));
    const first = list({ limit: 2 });
    const second = list({ limit: 2, cursor: first.nextCursor ?? undefined });

    expect(first.nextCursor).not.toBeNull();
    expect(second.items).toHaveLength(2);
    expect(second.nextCursor).toBeNull();
  });

  it("filters by kind, status, model and favourite", () => {
    const image = ledger.createGeneration(newGeneration({ kind: "image", model: "img-a", now: 1 }));
    const video = ledger.createGeneration(newGeneration({ kind: "video", model: "vid-a", now: 2 }));
    const other = ledger.createGeneration(newGeneration({ kind: "image", model: "img-b", now: 3 }));
    ledger.transition(video.id, "processing");
    ledger.transition(other.id, "success");
    ledger.setFavourite(image.id, true);

    expect(listIds({ kind: "video" })).toEqual([video.id]);
    expect(listIds({ kind: "image" })).toEqual([other.id, image.id]);
    expect(listIds({ status: "processing" })).toEqual([video.id]);
    expect(listIds({ status: "pending" })).toEqual([image.id]);
    expect(listIds({ model: "img-b" })).toEqual([other.id]);
    expect(listIds({ model: "img" })).toEqual([]);
    expect(listIds({ favourite: true })).toEqual([image.id]);
    expect(listIds({ favourite: false })).toEqual([other.id, video.id]);
    expect(listIds({ kind: "image", favourite: false })).toEqual([other.id]);
  });

  it("searches prompts case-insensitively, treating % and _ literally", () => {
    const percent = ledger.createGeneration(newGeneration({ prompt: "Sale: 50% OFF banner", now: 1 }));
    const fifty = ledger.createGeneration(newGeneration({ prompt: "50 balloons", now: 2 }));
    const underscore = ledger.createGeneration(newGeneration({ prompt: "file_name label", now: 3 }));
    const space = ledger.createGeneration(newGeneration({ prompt: "file name label", now: 4 }));
    const backslash = ledger.createGeneration(newGeneration({ prompt: "path C:\\temp", now: 5 }));

    expect(listIds({ q: "sale" })).toEqual([percent.id]);
    expect(listIds({ q: "50%" })).toEqual([percent.id]);
    expect(listIds({ q: "50" })).toEqual([percent.id, fifty.id].reverse());
    expect(listIds({ q: "FILE_NAME" })).toEqual([underscore.id]);
    expect(listIds({ q: "file name" })).toEqual([space.id]);
    expect(listIds({ q: "%" })).toEqual([percent.id]);
    expect(listIds({ q: "\\temp" })).toEqual([backslash.id]);
    expect(listIds({ q: "nothing like this" })).toEqual([]);
  });

  it("filters by created time, inclusive at both ends", () => {
    const ids = [10, 20, 30, 40].map((now) => ledger.createGeneration(newGeneration({ now })).id);

    expect(listIds({ from: 20, to: 30 })).toEqual([ids[2], ids[1]]);
    expect(listIds({ from: 31 })).toEqual([ids[3]]);
    expect(listIds({ to: 10 })).toEqual([ids[0]]);
  });

  it("keeps filters applied across pages", () => {
    for (let i = 0; i < 10; i += 1) ledger.createGeneration(newGeneration({ kind: i % 2 === 0 ? "video" : "image", now: i }));
    const first = list({ kind: "video", limit: 3 });
    const second = list({ kind: "video", limit: 3, cursor: first.nextCursor ?? undefined });

    expect([...first.items, ...second.items].map((item) => item.createdAt)).toEqual([8, 6, 4, 2, 0]);
    expect(second.nextCursor).toBeNull();
  });

  it("rejects a cursor it did not issue", () => {
    ledger.createGeneration(newGeneration());
    const bad = ["not a cursor", "!!!", Buffer.from("abc").toString("base64url"), Buffer.from("12:").toString("base64url"), "MTI6YQ=="];
    for (const cursor of bad) {
      expect(() => list({ cursor }), cursor).toThrow(InvalidCursorError);
    }
  });
});

describe("polling and recovery queries", () => {
  it("lists due unfinished video tasks oldest first, respecting next_poll_at", () => {
    const old = ledger.createGeneration(newGeneration({ kind: "video", providerTaskId: "1", now: 1 }));
    const scheduled = ledger.createGeneration(newGeneration({ kind: "video", providerTaskId: "2", now: 2 }));
    const processing = ledger.createGeneration(newGeneration({ kind: "video", providerTaskId: "3", now: 3 }));
    const done = ledger.createGeneration(newGeneration({ kind: "video", providerTaskId: "4", now: 4 }));
    const failed = ledger.createGeneration(newGeneration({ kind: "video", providerTaskId: "5", now: 5 }));
    ledger.createGeneration(newGeneration({ kind: "image", now: 6 }));
    ledger.createGeneration(newGeneration({ kind: "video", now: 7 }));
    ledger.transition(processing.id, "processing");
    ledger.transition(done.id, "success");
    ledger.transition(failed.id, "failed");
    ledger.scheduleNextPoll(scheduled.id, 1000);
    ledger.scheduleNextPoll(processing.id, 500);

    expect(ledger.listDueUnfinished(100).map((item) => item.id)).toEqual([old.id]);
    expect(ledger.listDueUnfinished(500).map((item) => item.id)).toEqual([old.id, processing.id]);
    expect(ledger.listDueUnfinished(1000).map((item) => item.id)).toEqual([old.id, scheduled.id, processing.id]);
    expect(ledger.listDueUnfinished(1000, 1).map((item) => item.id)).toEqual([old.id]);
  });

  it("lists stale generations without a task, and overdue ones", () => {
    const image = ledger.createGeneration(newGeneration({ kind: "image", status: "processing", now: 10 }));
    const submitting = ledger.createGeneration(newGeneration({ kind: "video", now: 20, deadlineAt: 100 }));
    const submitted = ledger.createGeneration(newGeneration({ kind: "video", providerTaskId: "9", now: 30, deadlineAt: 200 }));
    const finished = ledger.createGeneration(newGeneration({ kind: "image", now: 5 }));
    ledger.transition(finished.id, "success");

    expect(ledger.listStaleWithoutTask(25).map((item) => item.id)).toEqual([image.id, submitting.id]);
    expect(ledger.listStaleWithoutTask(20).map((item) => item.id)).toEqual([image.id]);
    expect(ledger.listPastDeadline(150).map((item) => item.id)).toEqual([submitting.id]);
    expect(ledger.listPastDeadline(200).map((item) => item.id)).toEqual([submitting.id, submitted.id]);
  });

  it("stops polling a task once it is terminal", () => {
    const { id } = ledger.createGeneration(newGeneration({ kind: "video", providerTaskId: "1", now: 1 }));
    ledger.scheduleNextPoll(id, 50);
    ledger.transition(id, "success");

    expect(ledger.listDueUnfinished(1000)).toEqual([]);
  });
});

describe("favourites and deletion", () => {
  it("sets and clears favourite", () => {
    const { id } = ledger.createGeneration(newGeneration());
    expect(ledger.setFavourite(id, true)?.favourite).toBe(true);
    expect(ledger.setFavourite(id, false)?.favourite).toBe(false);
    expect(ledger.setFavourite("missing", true)).toBeNull();
  });

  it("deletes a generation and returns every file it owned", () => {
    const reference = { mime: "image/png", name: "r.png", bytes: 1, sourceUrl: null };
    const { id } = ledger.createGeneration(
      newGeneration({ kind: "video", references: [{ ...reference, id: "ref-a", filePath: "references/a.png" }] }),
    );
    ledger.transition(id, "success", {
      outputs: [
        { index: 0, providerUrl: "https://cdn.example.com/0.mp4", providerCoverUrl: "https://cdn.example.com/0.jpg", mime: "video/mp4" },
        { index: 1, providerUrl: "https://cdn.example.com/1.mp4", providerCoverUrl: null, mime: "video/mp4" },
      ],
    });
    ledger.recordMirroredOutput(id, { index: 0, filePath: "media/0.mp4", coverPath: "media/0.jpg", thumbnailPath: "media/0.webp", width: 1, height: 1 });

    const deleted = ledger.deleteGeneration(id);

    expect(deleted?.filePaths.sort()).toEqual(["media/0.jpg", "media/0.mp4", "media/0.webp", "references/a.png"]);
    expect(ledger.getGeneration(id)).toBeNull();
    expect(ledger.getReferenceFile("ref-a")).toBeNull();
    expect(ledger.getStoredOutputs(id)).toEqual([]);
    expect(db.prepare("SELECT COUNT(*) AS count FROM status_changes").get()).toEqual({ count: 0 });
    expect(ledger.deleteGeneration(id)).toBeNull();
  });

  it("keeps a reference file another generation still uses", () => {
    const reference = { mime: "image/png", name: "r.png", bytes: 1, sourceUrl: null, filePath: "references/shared.png" };
    const first = ledger.createGeneration(newGeneration({ references: [{ ...reference, id: "ref-1" }] }));
    ledger.createGeneration(newGeneration({ references: [{ ...reference, id: "ref-2" }] }));

    expect(ledger.deleteGeneration(first.id)).toEqual({ filePaths: [] });
  });
});

describe("durability", () => {
  it("keeps everything across closing and reopening the database file", () => {
    const { id } = ledger.createGeneration(
      newGeneration({
        kind: "video",
        params: { size: "720x1280" },
        references: [{ id: "ref", mime: "image/png", name: "r.png", bytes: 5, sourceUrl: null, filePath: "references/r.png" }],
        webhookToken: "tok",
        now: 1,
      }),
    );
    ledger.attachProviderTask(id, "77");
    ledger.transition(id, "processing", { now: 2 });
    ledger.scheduleNextPoll(id, 10);
    const before = ledger.getGeneration(id);

    reopen();

    expect(ledger.getGeneration(id)).toEqual(before);
    expect(ledger.findByWebhookToken("tok")?.id).toBe(id);
    expect(ledger.listDueUnfinished(9)).toEqual([]);
    expect(ledger.listDueUnfinished(10).map((item) => item.id)).toEqual([id]);
  });

  it("runs migrations once: reopening leaves the schema version and data alone", () => {
    ledger.createGeneration(newGeneration());
    expect(db.pragma("user_version", { simple: true })).toBe(migrations.length);

    reopen();
    reopen();

    expect(db.pragma("user_version", { simple: true })).toBe(migrations.length);
    expect(list().items).toHaveLength(1);
    expect(db.pragma("journal_mode", { simple: true })).toBe("wal");
    expect(db.pragma("foreign_keys", { simple: true })).toBe(1);
  });
});
