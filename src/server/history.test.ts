/**
 * The studio's own API under /api/studio, in process: config, creating generations, the history list
 * (filters, pagination), favourites, deletion with its files, reference images and live events.
 */
import { existsSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generationPageSchema, generationSchema, studioConfigSchema, type Generation, type GenerationPage } from "../api/studio";
import {
  createStudioHarness,
  expectError,
  fileOf,
  formOf,
  jpegBytes,
  looksLikeMp4,
  looksLikePng,
  looksLikeWebp,
  pngBytes,
  SMALL_VIDEO_SIZE,
  waitFor,
  type StudioHarness,
} from "./test/studio-harness";

async function bytesOf(response: Response): Promise<Buffer> {
  return Buffer.from(await response.arrayBuffer());
}

async function readGeneration(response: Response, status: number): Promise<Generation> {
  expect(response.status).toBe(status);
  return generationSchema.parse(await response.json());
}

describe("GET /api/studio/config", () => {
  it("lists the configured models and the upload limits", async () => {
    const h = await createStudioHarness({
      env: {
        STUDIO_IMAGE_MODELS: "img-fast, img-hd,,",
        STUDIO_VIDEO_MODELS: "vid-1",
        STUDIO_MAX_REFERENCE_IMAGES: "3",
        STUDIO_MAX_REFERENCE_IMAGE_MB: "2",
      },
    });
    try {
      const response = await h.get("/api/studio/config");
      expect(response.status).toBe(200);
      const config = studioConfigSchema.parse(await response.json());
      expect(config.imageModels).toEqual(["img-fast", "img-hd"]);
      expect(config.videoModels).toEqual(["vid-1"]);
      expect(config.aspectRatios).toContain("16:9");
      expect(config.aspectRatios).toContain("1:1");
      expect(config.videoSizes.length).toBeGreaterThan(0);
      expect(config.limits).toEqual({
        promptMaxLength: 3000,
        maxReferenceImages: 3,
        maxReferenceImageBytes: 2 * 1024 * 1024,
        acceptedImageTypes: ["image/png", "image/jpeg", "image/webp", "image/gif"],
      });
      expect(config.sandbox).toBe(true);
    } finally {
      await h.close();
    }
  });
});

describe("creating generations through /api/studio", () => {
  let h: StudioHarness;
  let imageServer: Server;
  let jpeg: Buffer;
  let jpegUrl = "";

  beforeAll(async () => {
    h = await createStudioHarness();
    jpeg = await jpegBytes({ width: 40, height: 40, colour: { r: 30, g: 30, b: 220 } });
    imageServer = createServer((request, response) => {
      if (request.url === "/blue.jpg") {
        response.writeHead(200, { "content-type": "image/jpeg", "content-length": jpeg.length });
        response.end(jpeg);
      } else {
        response.writeHead(404).end();
      }
    });
    await new Promise<void>((resolve) => imageServer.listen(0, "127.0.0.1", resolve));
    jpegUrl = `http://127.0.0.1:${(imageServer.address() as AddressInfo).port}/blue.jpg`;
  });
  afterAll(async () => {
    await h.close();
    await new Promise<void>((resolve) => imageServer.close(() => resolve()));
  });

  it("POST /api/studio/images with an uploaded file and an image_url answers 201 with the finished generation", async () => {
    const upload = await pngBytes({ width: 40, height: 30, colour: { r: 230, g: 200, b: 10 } });
    const form = formOf({ prompt: "a yellow kite", model: "sandbox-image-1", aspect_ratio: "1:1", image_url: jpegUrl }, [
      fileOf(upload, "kite.png"),
    ]);
    const generation = await readGeneration(await h.postForm("/api/studio/images", form), 201);
    expect(generation).toMatchObject({
      kind: "image",
      status: "success",
      prompt: "a yellow kite",
      model: "sandbox-image-1",
      params: { aspect_ratio: "1:1" },
      providerTaskId: null,
      error: null,
      favourite: false,
    });

    const file = generation.references.find((reference) => reference.sourceUrl === null);
    const byUrl = generation.references.find((reference) => reference.sourceUrl === jpegUrl);
    expect(generation.references).toHaveLength(2);
    expect(file).toMatchObject({ name: "kite.png", mime: "image/png", bytes: upload.length });
    expect(file?.url).toBe(`/api/studio/references/${file?.id}`);
    expect(byUrl).toMatchObject({ url: jpegUrl, name: "blue.jpg" });

    const served = await h.get(file?.url ?? "");
    expect(served.status).toBe(200);
    expect(served.headers.get("content-type")).toBe("image/png");
    expect((await bytesOf(served)).equals(upload)).toBe(true);

    const [output] = generation.outputs;
    expect(generation.outputs).toHaveLength(1);
    const media = await h.get(output?.url ?? "");
    expect(media.status).toBe(200);
    expect(looksLikePng(await bytesOf(media))).toBe(true);
    const thumbnail = await h.get(output?.thumbnailUrl ?? "");
    expect(looksLikeWebp(await bytesOf(thumbnail))).toBe(true);

    // The same record is what GET returns.
    expect(await readGeneration(await h.get(`/api/studio/generations/${generation.id}`), 200)).toEqual(generation);
  });

  it("POST /api/studio/images as JSON works too, and a provider failure answers 502 and is recorded as failed", async () => {
    const ok = await readGeneration(await h.postJson("/api/studio/images", { prompt: "a plain JSON request", model: "m" }), 201);
    expect(ok.status).toBe("success");

    const failed = await h.postJson("/api/studio/images", { prompt: "sandbox:fail please", model: "m" });
    const body = await expectError(failed, 502, "upstream_error");
    const recorded = h.allGenerations().find((generation) => generation.prompt === "sandbox:fail please");
    expect(recorded).toMatchObject({ status: "failed", error: { code: "upstream_error", message: body.error.message } });
  });

  it("validates /api/studio requests like the provider paths", async () => {
    const before = h.allGenerations().length;
    const referencesBefore = await h.listFiles("references");
    await expectError(await h.postJson("/api/studio/images", { prompt: "y".repeat(3001), model: "m" }), 400, "prompt_too_long");
    await expectError(await h.postJson("/api/studio/videos", { prompt: "y".repeat(3001), model: "m" }), 400, "prompt_too_long");
    await expectError(await h.postJson("/api/studio/videos", { prompt: "a" }), 400, "model_required");
    await expectError(
      await h.postForm("/api/studio/images", formOf({ prompt: "a", model: "m" }, [fileOf(Buffer.from("hello"), "x.png")])),
      400,
      "invalid_image",
    );
    expect(h.allGenerations()).toHaveLength(before);
    expect(await h.listFiles("references")).toEqual(referencesBefore);
  });

  it("POST /api/studio/videos answers 202 with a pending generation that reaches success with mirrored media", async () => {
    const response = await h.postJson("/api/studio/videos", { prompt: "waves on a pier", model: "sandbox-video-1", size: SMALL_VIDEO_SIZE });
    const accepted = await readGeneration(response, 202);
    expect(accepted).toMatchObject({ kind: "video", status: "pending", params: { size: SMALL_VIDEO_SIZE }, outputs: [], error: null });
    expect(accepted.providerTaskId).toMatch(/^\d+$/);
    expect(accepted.completedAt).toBeNull();

    expect(await readGeneration(await h.get(`/api/studio/generations/${accepted.id}`), 200)).toMatchObject({
      id: accepted.id,
      providerTaskId: accepted.providerTaskId,
    });

    const settled = await h.settleVideo(accepted.id);
    expect(settled.status).toBe("success");
    const fetched = await readGeneration(await h.get(`/api/studio/generations/${accepted.id}`), 200);
    expect(fetched.status).toBe("success");
    const [output] = fetched.outputs;
    expect(output).toMatchObject({ index: 0, mime: "video/mp4", width: 128, height: 72 });
    expect(output?.url).toMatch(/^\/media\/.+\/0\.mp4$/);
    expect(output?.coverUrl).toMatch(/^\/media\/.+-cover\.png$/);
    expect(output?.thumbnailUrl).toMatch(/^\/media\/.+\.webp$/);
    expect(looksLikeMp4(await bytesOf(await h.get(output?.url ?? "")))).toBe(true);
    expect(looksLikePng(await bytesOf(await h.get(output?.coverUrl ?? "")))).toBe(true);
  });

  it("DELETE removes the generation, its media and its reference files", async () => {
    const upload = await pngBytes({ colour: { r: 10, g: 120, b: 10 } });
    const form = formOf({ prompt: "to be deleted", model: "m" }, [fileOf(upload, "leaf.png")]);
    const generation = await readGeneration(await h.postForm("/api/studio/images", form), 201);
    const reference = generation.references[0];
    const output = generation.outputs[0];
    if (!reference || !output?.thumbnailUrl) throw new Error("expected a reference and a mirrored output");

    const mediaFiles = await h.listFiles(`media/${generation.id}`);
    expect(mediaFiles).toEqual([`media/${generation.id}/0-thumb.webp`, `media/${generation.id}/0.png`]);
    const referenceFiles = (await h.listFiles("references")).filter((file) => file.includes(reference.id));
    expect(referenceFiles).toHaveLength(1);

    const deleted = await h.delete(`/api/studio/generations/${generation.id}`);
    expect(deleted.status).toBe(204);
    expect(await deleted.text()).toBe("");

    await expectError(await h.get(`/api/studio/generations/${generation.id}`), 404, "not_found");
    await expectError(await h.delete(`/api/studio/generations/${generation.id}`), 404, "not_found");
    expect(existsSync(h.pathIn("media", generation.id))).toBe(false);
    for (const file of [...mediaFiles, ...referenceFiles]) expect(existsSync(h.pathIn(file))).toBe(false);
    await expectError(await h.get(output.url), 404, "not_found");
    await expectError(await h.get(output.thumbnailUrl), 404, "not_found");
    await expectError(await h.get(reference.url), 404, "not_found");
  });

  it("DELETE of a finished video removes its mp4, cover and thumbnail", async () => {
    const accepted = await readGeneration(
      await h.postJson("/api/studio/videos", { prompt: "a short clip to delete", model: "sandbox-video-1", size: SMALL_VIDEO_SIZE }),
      202,
    );
    const settled = await h.settleVideo(accepted.id);
    expect(settled.status).toBe("success");
    expect((await h.listFiles(`media/${accepted.id}`)).length).toBe(3);

    expect((await h.delete(`/api/studio/generations/${accepted.id}`)).status).toBe(204);
    expect(existsSync(h.pathIn("media", accepted.id))).toBe(false);
    expect(h.ledger.getGeneration(accepted.id)).toBeNull();
  });

  it("answers unknown ids with 404 not_found", async () => {
    await expectError(await h.get("/api/studio/generations/no-such-id"), 404, "not_found");
    await expectError(await h.putJson("/api/studio/generations/no-such-id/favourite", { favourite: true }), 404, "not_found");
    await expectError(await h.delete("/api/studio/generations/no-such-id"), 404, "not_found");
    await expectError(await h.get("/api/studio/references/no-such-id"), 404, "not_found");
    await expectError(await h.get("/api/studio/no-such-route"), 404, "not_found");
    await expectError(await h.get("/media/no-such-id/0.png"), 404, "not_found");
  });
});

describe("the history list", () => {
  let h: StudioHarness;
  /** Seeded generations by name, created oldest (a) to newest (g); f and g share a timestamp. */
  const ids: Record<string, string> = {};
  const base = Date.now() - 60_000;

  beforeAll(async () => {
    h = await createStudioHarness();
    const seed = (name: string, at: number, fields: Pick<Generation, "kind" | "status" | "prompt" | "model">) => {
      ids[name] = h.ledger.createGeneration({ ...fields, params: {}, references: [], now: base + at }).id;
    };
    seed("a", 1, { kind: "image", status: "success", prompt: "A red FOX in the snow", model: "img-a" });
    seed("b", 2, { kind: "image", status: "failed", prompt: "a blue whale", model: "img-b" });
    seed("c", 3, { kind: "video", status: "pending", prompt: "fox cub playing", model: "vid-a" });
    seed("d", 4, { kind: "video", status: "success", prompt: "a city at night", model: "vid-a" });
    seed("e", 5, { kind: "image", status: "success", prompt: "the fox and the hound", model: "img-a" });
    seed("f", 6, { kind: "image", status: "processing", prompt: "100% cotton_shirt", model: "img-c" });
    seed("g", 6, { kind: "image", status: "success", prompt: "a still life", model: "img-c" });
    for (const name of ["a", "d"]) {
      const response = await h.putJson(`/api/studio/generations/${ids[name]}/favourite`, { favourite: true });
      expect(response.status).toBe(200);
    }
  });
  afterAll(async () => {
    await h.close();
  });

  const list = async (query: string): Promise<GenerationPage> => {
    const response = await h.get(`/api/studio/generations${query}`);
    expect(response.status).toBe(200);
    return generationPageSchema.parse(await response.json());
  };
  const namesOf = (page: GenerationPage) => page.items.map((item) => Object.keys(ids).find((name) => ids[name] === item.id) ?? item.id);
  /** Follows nextCursor to the end; returns the names page by page. */
  const walk = async (query: string): Promise<string[][]> => {
    const pages: string[][] = [];
    let cursor: string | null = null;
    do {
      const separator = query ? "&" : "?";
      const page: GenerationPage = await list(`${query}${cursor ? `${separator}cursor=${encodeURIComponent(cursor)}` : ""}`);
      pages.push(namesOf(page));
      cursor = page.nextCursor;
      if (pages.length > 20) throw new Error("pagination does not end");
    } while (cursor);
    return pages;
  };
  /** Newest first; f and g share a timestamp, so their order is by id, descending. */
  const newestFirst = () => {
    const tied = [ids.f ?? "", ids.g ?? ""].sort().reverse().map((id) => (id === ids.f ? "f" : "g"));
    return [...tied, "e", "d", "c", "b", "a"];
  };

  it("lists everything newest first with no next page", async () => {
    const page = await list("");
    expect(namesOf(page)).toEqual(newestFirst());
    expect(page.nextCursor).toBeNull();
  });

  it("filters by kind, status, model, favourite and prompt text", async () => {
    expect(namesOf(await list("?kind=video"))).toEqual(["d", "c"]);
    expect(namesOf(await list("?status=failed"))).toEqual(["b"]);
    expect(namesOf(await list("?status=pending"))).toEqual(["c"]);
    expect(namesOf(await list("?model=img-a"))).toEqual(["e", "a"]);
    expect(namesOf(await list("?favourite=true"))).toEqual(["d", "a"]);
    expect(namesOf(await list("?favourite=false")).sort()).toEqual(["b", "c", "e", "f", "g"]);
    expect(namesOf(await list("?q=fox"))).toEqual(["e", "c", "a"]);
    expect(namesOf(await list("?q=FOX"))).toEqual(["e", "c", "a"]);
    expect(namesOf(await list("?kind=image&q=fox&favourite=false"))).toEqual(["e"]);
    expect(namesOf(await list("?q=nothing-like-this"))).toEqual([]);
  });

  it("treats % and _ in the search text literally", async () => {
    expect(namesOf(await list(`?q=${encodeURIComponent("100%")}`))).toEqual(["f"]);
    expect(namesOf(await list(`?q=${encodeURIComponent("%")}`))).toEqual(["f"]);
    expect(namesOf(await list(`?q=${encodeURIComponent("a%e")}`))).toEqual([]);
    expect(namesOf(await list("?q=o_t"))).toEqual([]);
    expect(namesOf(await list("?q=cotton_shirt"))).toEqual(["f"]);
  });

  it("filters by creation time", async () => {
    expect(namesOf(await list(`?from=${base + 4}&to=${base + 5}`))).toEqual(["e", "d"]);
  });

  it("pages with the cursor without gaps or repeats, also across a timestamp tie", async () => {
    const pages = await walk("?limit=2");
    expect(pages.map((page) => page.length)).toEqual([2, 2, 2, 1]);
    expect(pages.flat()).toEqual(newestFirst());

    const single = await walk("?limit=1");
    expect(single.flat()).toEqual(newestFirst());

    const filtered = await walk("?q=fox&limit=2");
    expect(filtered).toEqual([["e", "c"], ["a"]]);
  });

  it("follows a favourite change in the list and answers with the updated generation", async () => {
    const response = await h.putJson(`/api/studio/generations/${ids.b}/favourite`, { favourite: true });
    const updated = await readGeneration(response, 200);
    expect(updated).toMatchObject({ id: ids.b, favourite: true });
    expect(namesOf(await list("?favourite=true"))).toEqual(["d", "b", "a"]);

    const undone = await readGeneration(await h.putJson(`/api/studio/generations/${ids.b}/favourite`, { favourite: false }), 200);
    expect(undone.favourite).toBe(false);
    expect(namesOf(await list("?favourite=true"))).toEqual(["d", "a"]);
  });

  it("rejects a favourite body that is not {favourite: boolean} with 400 invalid_body", async () => {
    const path = `/api/studio/generations/${ids.a}/favourite`;
    await expectError(await h.putJson(path, { favourite: "yes" }), 400, "invalid_body");
    await expectError(await h.putJson(path, {}), 400, "invalid_body");
    await expectError(await h.putJson(path, "{not json"), 400, "invalid_body");
    expect(h.ledger.getGeneration(ids.a ?? "")?.favourite).toBe(true);
  });

  it.each([
    ["an invalid cursor", "?cursor=not-a-cursor"],
    ["a forged cursor", `?cursor=${Buffer.from("12:x' OR 1=1 --").toString("base64url")}x`],
    ["an unknown kind", "?kind=audio"],
    ["an unknown status", "?status=done"],
    ["a zero limit", "?limit=0"],
    ["a huge limit", "?limit=100000"],
    ["a non-boolean favourite", "?favourite=yes"],
    ["a non-numeric from", "?from=yesterday"],
  ])("answers %s with 400 invalid_field", async (_label, query) => {
    await expectError(await h.get(`/api/studio/generations${query}`), 400, "invalid_field");
  });
});

describe("live events", () => {
  it("streams a ready event, then generation changes, and unsubscribes when the reader goes away", async () => {
    const h = await createStudioHarness();
    try {
      const created = h.ledger.createGeneration({ kind: "image", status: "success", prompt: "p", model: "m", params: {}, references: [] });
      const response = await h.get("/api/studio/events");
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toMatch(/^text\/event-stream/);
      const reader = response.body?.getReader();
      if (!reader) throw new Error("no body");
      const decoder = new TextDecoder();
      let text = "";
      const readUntil = async (needle: string) => {
        while (!text.includes(needle)) {
          const { value, done } = await reader.read();
          if (done) throw new Error(`stream ended before ${needle}`);
          text += decoder.decode(value, { stream: true });
        }
      };
      await readUntil("event: ready");
      expect(h.deps.events.subscriberCount).toBe(1);

      expect((await h.putJson(`/api/studio/generations/${created.id}/favourite`, { favourite: true })).status).toBe(200);
      await readUntil(`"favourite":true`);
      expect(text).toContain("event: generation");
      expect(text).toContain(created.id);

      expect((await h.delete(`/api/studio/generations/${created.id}`)).status).toBe(204);
      await readUntil("event: deleted");

      await reader.cancel();
      await waitFor(async () => h.deps.events.subscriberCount, (count) => count === 0, 5000, 10);
    } finally {
      await h.close();
    }
  });
});
