/**
 * The provider's three paths as the studio serves them (in process, embedded sandbox upstream):
 * forwarding, ledger records, mirrored media, provider failures, and validation before forwarding.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  imageResultSchema,
  PROMPT_MAX_LENGTH,
  providerPaths,
  taskAcceptanceSchema,
  videoTaskRecordSchema,
  type VideoTaskRecord,
} from "../api/provider";
import { generationSchema, type Generation } from "../api/studio";
import {
  createStudioHarness,
  expectError,
  fileOf,
  formOf,
  looksLikeMp4,
  looksLikePng,
  looksLikeWebp,
  pngBytes,
  SMALL_VIDEO_SIZE,
  waitFor,
  type StudioHarness,
} from "./test/studio-harness";

const IMAGE_MODEL = "sandbox-image-1";
const VIDEO_MODEL = "sandbox-video-1";

function only<T>(items: readonly T[]): T {
  expect(items).toHaveLength(1);
  const [item] = items;
  if (item === undefined) throw new Error("expected one item");
  return item;
}

async function bytesOf(response: Response): Promise<Buffer> {
  return Buffer.from(await response.arrayBuffer());
}

/** The one generation the ledger holds with this prompt. */
function generationWithPrompt(h: StudioHarness, prompt: string): Generation {
  return only(h.allGenerations().filter((generation) => generation.prompt === prompt));
}

async function pollTask(h: StudioHarness, taskId: string, done: (record: VideoTaskRecord) => boolean): Promise<VideoTaskRecord> {
  return waitFor(
    async () => {
      const response = await h.get(providerPaths.video(taskId));
      expect(response.status).toBe(200);
      return videoTaskRecordSchema.parse(await response.json());
    },
    done,
    20_000,
    60,
  );
}

describe("provider paths, forwarded to the sandbox and recorded", () => {
  let h: StudioHarness;
  beforeAll(async () => {
    h = await createStudioHarness();
  });
  afterAll(async () => {
    await h.close();
  });

  it("generates an image from JSON: the URL serves a real PNG from /media and the ledger records it", async () => {
    const prompt = "a lighthouse at dusk, JSON request";
    const response = await h.postJson(providerPaths.images, { prompt, model: IMAGE_MODEL, aspect_ratio: "16:9" });
    expect(response.status).toBe(200);
    const result = imageResultSchema.parse(await response.json());
    expect(Math.abs(result.created - Date.now() / 1000)).toBeLessThan(60);
    const { url } = only(result.data);
    expect(new URL(url).pathname).toMatch(/^\/media\/[\w-]+\/0\.png$/);

    const media = await h.get(url);
    expect(media.status).toBe(200);
    expect(media.headers.get("content-type")).toBe("image/png");
    const png = await bytesOf(media);
    expect(looksLikePng(png)).toBe(true);
    const metadata = await sharp(png).metadata();
    expect(metadata.format).toBe("png");
    expect((metadata.width ?? 0) / (metadata.height ?? 1)).toBeCloseTo(16 / 9, 1);

    const generation = generationSchema.parse(generationWithPrompt(h, prompt));
    expect(generation).toMatchObject({ kind: "image", status: "success", model: IMAGE_MODEL, params: { aspect_ratio: "16:9" }, error: null });
    expect(generation.completedAt).not.toBeNull();
    expect(generation.statusHistory.map((change) => change.status)).toEqual(["processing", "success"]);
    const output = only(generation.outputs);
    expect(output.url).toBe(new URL(url).pathname);
    expect(output).toMatchObject({ mime: "image/png", width: metadata.width, height: metadata.height });
    expect(output.thumbnailUrl).toMatch(/^\/media\/.+\.webp$/);
    const thumbnail = await h.get(output.thumbnailUrl ?? "");
    expect(thumbnail.status).toBe(200);
    expect(looksLikeWebp(await bytesOf(thumbnail))).toBe(true);
  });

  it("generates an image from multipart with an uploaded `image` part, and keeps the reference", async () => {
    const prompt = "a red square, made over, multipart request";
    const reference = await pngBytes({ width: 48, height: 32, colour: { r: 220, g: 20, b: 20 } });
    const response = await h.postForm(providerPaths.images, formOf({ prompt, model: IMAGE_MODEL }, [fileOf(reference, "red.png")]));
    expect(response.status).toBe(200);
    const { url } = only(imageResultSchema.parse(await response.json()).data);
    const media = await h.get(url);
    expect(media.status).toBe(200);
    expect(looksLikePng(await bytesOf(media))).toBe(true);

    const generation = generationWithPrompt(h, prompt);
    expect(generation.status).toBe("success");
    const stored = only(generation.references);
    expect(stored).toMatchObject({ name: "red.png", mime: "image/png", bytes: reference.length, sourceUrl: null });
    const served = await h.get(stored.url);
    expect(served.status).toBe(200);
    expect(served.headers.get("content-type")).toBe("image/png");
    expect((await bytesOf(served)).equals(reference)).toBe(true);
  });

  it("submits a video, reports it through the status path until success, and serves the mirrored mp4", async () => {
    const prompt = "a paper boat drifting, proxied video";
    const submitted = await h.postJson(providerPaths.videos, { prompt, model: VIDEO_MODEL, size: SMALL_VIDEO_SIZE });
    expect(submitted.status).toBe(200);
    const acceptance = taskAcceptanceSchema.parse(await submitted.json());
    expect(acceptance.id).toMatch(/^\d+$/);
    expect(acceptance.status).toBe("pending");

    const pending = h.allGenerations().find((generation) => generation.prompt === prompt);
    expect(pending).toMatchObject({ kind: "video", providerTaskId: acceptance.id, params: { size: SMALL_VIDEO_SIZE } });

    const seen = new Set<string>();
    const record = await pollTask(h, acceptance.id, (current) => {
      seen.add(current.status);
      return current.status === "success" || current.status === "failed";
    });
    expect(record).toMatchObject({ id: acceptance.id, object: "video", model: VIDEO_MODEL, status: "success", error: null });
    const item = only(record.data);
    expect(new URL(item.url).pathname).toMatch(/^\/media\/[\w-]+\/0\.mp4$/);
    expect(item.cover_url).not.toBeNull();

    const video = await h.get(item.url);
    expect(video.status).toBe(200);
    expect(video.headers.get("content-type")).toBe("video/mp4");
    expect(looksLikeMp4(await bytesOf(video))).toBe(true);
    const cover = await h.get(item.cover_url ?? "");
    expect(cover.status).toBe(200);
    expect(looksLikePng(await bytesOf(cover))).toBe(true);

    const generation = generationWithPrompt(h, prompt);
    expect(generation.status).toBe("success");
    const history = generation.statusHistory.map((change) => change.status);
    expect(history[0]).toBe("pending");
    expect(history.at(-1)).toBe("success");
    const output = only(generation.outputs);
    expect(output).toMatchObject({ mime: "video/mp4", width: 128, height: 72 });
    expect(output.thumbnailUrl).toMatch(/\.webp$/);

    // Once finished, the answer comes from the ledger and stays the same.
    const again = videoTaskRecordSchema.parse(await (await h.get(providerPaths.video(acceptance.id))).json());
    expect(again).toEqual(record);
  });

  it("accepts a multipart video submission with reference frames", async () => {
    const prompt = "a zoom into a green field, multipart video";
    const frame = await pngBytes({ width: 64, height: 36, colour: { r: 20, g: 200, b: 40 } });
    const response = await h.postForm(
      providerPaths.videos,
      formOf({ prompt, model: VIDEO_MODEL, size: SMALL_VIDEO_SIZE }, [fileOf(frame, "first.png"), fileOf(frame, "last.png")]),
    );
    expect(response.status).toBe(200);
    const acceptance = taskAcceptanceSchema.parse(await response.json());
    const generation = generationWithPrompt(h, prompt);
    expect(generation.providerTaskId).toBe(acceptance.id);
    expect(generation.references.map((reference) => reference.name)).toEqual(["first.png", "last.png"]);
    const record = await pollTask(h, acceptance.id, (current) => current.status === "success" || current.status === "failed");
    expect(record.status).toBe("success");
  });

  it("records a provider failure during image generation and answers 502 upstream_error", async () => {
    const prompt = "this one breaks: sandbox:fail";
    const before = h.allGenerations().length;
    const response = await h.postJson(providerPaths.images, { prompt, model: IMAGE_MODEL });
    const body = await expectError(response, 502, "upstream_error");
    expect(body.error.message).toMatch(/HTTP 500/);

    expect(h.allGenerations()).toHaveLength(before + 1);
    const generation = generationWithPrompt(h, prompt);
    expect(generation.status).toBe("failed");
    expect(generation.error).toEqual({ code: "upstream_error", message: body.error.message });
    expect(generation.outputs).toEqual([]);
    expect(generation.completedAt).not.toBeNull();
  });

  it("reports a video task that fails at the provider as failed with the `timeout` code", async () => {
    const prompt = "a video that will not finish sandbox:fail";
    const submitted = await h.postJson(providerPaths.videos, { prompt, model: VIDEO_MODEL, size: SMALL_VIDEO_SIZE });
    expect(submitted.status).toBe(200);
    const { id } = taskAcceptanceSchema.parse(await submitted.json());
    const record = await pollTask(h, id, (current) => current.status === "success" || current.status === "failed");
    expect(record.status).toBe("failed");
    expect(record.data).toEqual([]);
    expect(record.error?.code).toBe("timeout");
    expect(record.error?.message.length).toBeGreaterThan(5);

    const generation = generationWithPrompt(h, prompt);
    expect(generation.status).toBe("failed");
    expect(generation.error).toEqual(record.error);
  });

  it("passes the provider's own 4xx answer through and records the generation as failed", async () => {
    const prompt = "made over from an image nobody serves";
    const response = await h.postJson(providerPaths.images, { prompt, model: IMAGE_MODEL, image: "http://127.0.0.1:9/missing.png" });
    const body = await expectError(response, 400, "image_fetch_failed");
    const generation = generationWithPrompt(h, prompt);
    expect(generation).toMatchObject({ status: "failed", error: { code: "image_fetch_failed", message: body.error.message } });
    expect(only(generation.references)).toMatchObject({ sourceUrl: "http://127.0.0.1:9/missing.png", url: "http://127.0.0.1:9/missing.png" });
  });

  it("answers an unknown numeric task id with 404 task_not_found", async () => {
    await expectError(await h.get(providerPaths.video("12345")), 404, "task_not_found");
  });

  it.each(["abc", "..%2F..", "12a", "-1", "%20"])("rejects the task id %s with 400 invalid_task_id", async (taskId) => {
    await expectError(await h.get(`/api/ai/videos/${taskId}`), 400, "invalid_task_id");
  });

  it("answers an unknown path under /api/ai with a 404 error body", async () => {
    await expectError(await h.get("/api/ai/nothing-here"), 404, "not_found");
  });
});

describe("validation before forwarding", () => {
  let h: StudioHarness;
  beforeAll(async () => {
    h = await createStudioHarness({ env: { STUDIO_MAX_REFERENCE_IMAGES: "2", STUDIO_MAX_REFERENCE_IMAGE_MB: "1" } });
  });
  afterAll(async () => {
    await h.close();
  });

  /** What a forwarded request would leave behind: a ledger row, files at the sandbox, kept references. */
  const snapshot = async () => ({
    generations: h.allGenerations().length,
    sandboxFiles: await h.listFiles("sandbox"),
    references: await h.listFiles("references"),
  });

  /** Sends the request and asserts the error, and that nothing was recorded, forwarded or kept. */
  async function expectRejected(send: () => Promise<Response>, status: number, code: string) {
    const before = await snapshot();
    const body = await expectError(await send(), status, code);
    expect(await snapshot()).toEqual(before);
    return body;
  }

  const endpoints = [
    { name: "images", path: providerPaths.images, model: IMAGE_MODEL },
    { name: "videos", path: providerPaths.videos, model: VIDEO_MODEL },
  ] as const;
  const tooLong = "x".repeat(PROMPT_MAX_LENGTH + 1);

  describe.each(endpoints)("$name", ({ path, model }) => {
    it("rejects a prompt over 3000 characters sent as JSON with 400 prompt_too_long", async () => {
      const body = await expectRejected(() => h.postJson(path, { prompt: tooLong, model }), 400, "prompt_too_long");
      expect(body.error.message).toContain("3000");
    });

    it("rejects a prompt over 3000 characters sent as multipart with 400 prompt_too_long, keeping no uploaded file", async () => {
      const form = formOf({ prompt: tooLong, model }, [fileOf(await pngBytes(), "ref.png")]);
      await expectRejected(() => h.postForm(path, form), 400, "prompt_too_long");
    });

    it("rejects a JSON `image` that is neither a URL nor a list of URLs instead of dropping it", async () => {
      await expectRejected(() => h.postJson(path, { prompt: "p", model, image: [123] }), 400, "image_url_invalid");
      await expectRejected(() => h.postJson(path, { prompt: "p", model, image: { url: "https://example.com/a.png" } }), 400, "image_url_invalid");
    });

    it("rejects a missing or blank prompt with prompt_required", async () => {
      await expectRejected(() => h.postJson(path, { model }), 400, "prompt_required");
      await expectRejected(() => h.postJson(path, { prompt: "   ", model }), 400, "prompt_required");
      await expectRejected(() => h.postForm(path, formOf({ model })), 400, "prompt_required");
      const withFile = formOf({ model }, [fileOf(await pngBytes(), "ref.png")]);
      await expectRejected(() => h.postForm(path, withFile), 400, "prompt_required");
    });

    it("rejects a missing model with model_required", async () => {
      await expectRejected(() => h.postJson(path, { prompt: "a cat" }), 400, "model_required");
      await expectRejected(() => h.postJson(path, { prompt: "a cat", model: " " }), 400, "model_required");
      const withFile = formOf({ prompt: "a cat" }, [fileOf(await pngBytes(), "ref.png")]);
      await expectRejected(() => h.postForm(path, withFile), 400, "model_required");
    });

    it("rejects a file whose bytes are not an image, whatever its name, with invalid_image", async () => {
      const text = fileOf(Buffer.from("just some text, not a picture\n"), "x.png", "image/png");
      const body = await expectRejected(() => h.postForm(path, formOf({ prompt: "a cat", model }, [text])), 400, "invalid_image");
      expect(body.error.message).toContain("x.png");
      await expectRejected(
        () => h.postForm(path, formOf({ prompt: "a cat", model }, [fileOf(Buffer.from("<svg xmlns='http://www.w3.org/2000/svg'/>"), "a.svg")])),
        400,
        "invalid_image",
      );
      await expectRejected(
        () => h.postForm(path, formOf({ prompt: "a cat", model }, [fileOf(Buffer.from("GIF"), "tiny.gif")])),
        400,
        "invalid_image",
      );
    });

    it("rejects a good image followed by a bad one, keeping neither", async () => {
      const good = fileOf(await pngBytes(), "good.png");
      const bad = fileOf(Buffer.from("%PDF-1.7 not an image"), "bad.png");
      await expectRejected(() => h.postForm(path, formOf({ prompt: "a cat", model }, [good, bad])), 400, "invalid_image");
    });

    it("rejects more reference files than STUDIO_MAX_REFERENCE_IMAGES with too_many_images", async () => {
      const png = await pngBytes();
      const files = [1, 2, 3].map((n) => fileOf(png, `ref-${n}.png`));
      const body = await expectRejected(() => h.postForm(path, formOf({ prompt: "a cat", model }, files)), 400, "too_many_images");
      expect(body.error.message).toContain("2");
    });

    it("rejects more reference URLs than STUDIO_MAX_REFERENCE_IMAGES with too_many_images", async () => {
      const urls = [1, 2, 3].map((n) => `http://127.0.0.1:9/ref-${n}.png`);
      await expectRejected(() => h.postJson(path, { prompt: "a cat", model, image: urls }), 400, "too_many_images");
      const png = await pngBytes();
      const form = formOf({ prompt: "a cat", model, image_url: urls[0] ?? "" }, [fileOf(png, "a.png"), fileOf(png, "b.png")]);
      await expectRejected(() => h.postForm(path, form), 400, "too_many_images");
      // URL parts after the files count too.
      const filesFirst = formOf({ prompt: "a cat", model }, [fileOf(png, "a.png")]);
      filesFirst.append("image", urls[1] ?? "");
      filesFirst.append("image_url", urls[2] ?? "");
      await expectRejected(() => h.postForm(path, filesFirst), 400, "too_many_images");
    });

    it("rejects a file over STUDIO_MAX_REFERENCE_IMAGE_MB with image_too_large", async () => {
      const png = await pngBytes();
      const big = Buffer.concat([png, Buffer.alloc(1.5 * 1024 * 1024, 7)]);
      const body = await expectRejected(() => h.postForm(path, formOf({ prompt: "a cat", model }, [fileOf(big, "big.png")])), 400, "image_too_large");
      expect(body.error.message).toContain("big.png");
    });

    it("rejects a reference URL that is not http(s) with image_url_invalid", async () => {
      await expectRejected(() => h.postJson(path, { prompt: "a cat", model, image: "file:///etc/passwd" }), 400, "image_url_invalid");
    });

    it("rejects a body that is neither JSON nor multipart with 415", async () => {
      await expectRejected(
        () => h.request(path, { method: "POST", headers: { "content-type": "text/plain" }, body: "prompt=a cat" }),
        415,
        "unsupported_media_type",
      );
      await expectRejected(() => h.request(path, { method: "POST", body: null }), 415, "unsupported_media_type");
    });

    it("rejects malformed JSON with invalid_json and a non-object with invalid_body", async () => {
      await expectRejected(() => h.postJson(path, '{"prompt": "a cat", "model": '), 400, "invalid_json");
      await expectRejected(() => h.postJson(path, '["a cat"]'), 400, "invalid_body");
      await expectRejected(() => h.postJson(path, "null"), 400, "invalid_body");
    });

    it("rejects a file sent under another part name with invalid_field", async () => {
      const form = formOf({ model }, [fileOf(await pngBytes(), "prompt.png")], "prompt");
      await expectRejected(() => h.postForm(path, form), 400, "invalid_field");
    });

    it("rejects a multipart body without a boundary, or cut short, with invalid_body, keeping no partial file", async () => {
      await expectRejected(
        () => h.request(path, { method: "POST", headers: { "content-type": "multipart/form-data" }, body: "prompt=a" }),
        400,
        "invalid_body",
      );
      const png = await pngBytes({ width: 200, height: 200 });
      const head = [
        "--cut",
        'Content-Disposition: form-data; name="prompt"',
        "",
        "a cat",
        "--cut",
        'Content-Disposition: form-data; name="model"',
        "",
        model,
        "--cut",
        'Content-Disposition: form-data; name="image"; filename="cut.png"',
        "Content-Type: image/png",
        "",
        "",
      ].join("\r\n");
      const body = Buffer.concat([Buffer.from(head), png]);
      await expectRejected(
        () => h.request(path, { method: "POST", headers: { "content-type": "multipart/form-data; boundary=cut" }, body }),
        400,
        "invalid_body",
      );
    });

    it("rejects a JSON body over 1 MB with 413 payload_too_large", async () => {
      await expectRejected(() => h.postJson(path, { prompt: "a cat", model, padding: "x".repeat(1_200_000) }), 413, "payload_too_large");
    });
  });

  it("accepts a prompt of exactly 3000 characters", async () => {
    const prompt = "a ".repeat(PROMPT_MAX_LENGTH / 2).trimEnd() + "b";
    expect(prompt).toHaveLength(PROMPT_MAX_LENGTH);
    const response = await h.postJson(providerPaths.images, { prompt, model: IMAGE_MODEL });
    expect(response.status).toBe(200);
    expect(generationWithPrompt(h, prompt).status).toBe("success");
  });

  it("rejects a malformed aspect_ratio and size with invalid_field", async () => {
    await expectRejected(() => h.postJson(providerPaths.images, { prompt: "a cat", model: IMAGE_MODEL, aspect_ratio: "wide" }), 400, "invalid_field");
    await expectRejected(() => h.postJson(providerPaths.videos, { prompt: "a cat", model: VIDEO_MODEL, size: "huge" }), 400, "invalid_field");
  });

  it("rejects over-long small bodies (favourite, session, webhook) with 413 payload_too_large", async () => {
    const id = h.ledger.createGeneration({ kind: "image", status: "success", prompt: "p", model: "m", params: {}, references: [] }).id;
    const response = await h.putJson(`/api/studio/generations/${id}/favourite`, { favourite: true, padding: "x".repeat(100 * 1024) });
    await expectError(response, 413, "payload_too_large");
    expect(h.ledger.getGeneration(id)?.favourite).toBe(false);
    // With a content-length header, as a real client sends it.
    const body = JSON.stringify({ favourite: true, padding: "x".repeat(100 * 1024) });
    const declared = await h.request(`/api/studio/generations/${id}/favourite`, {
      method: "PUT",
      headers: { "content-type": "application/json", "content-length": String(Buffer.byteLength(body)) },
      body,
    });
    await expectError(declared, 413, "payload_too_large");

    await expectError(await h.postJson("/api/studio/session", { token: "x".repeat(100 * 1024) }), 413, "payload_too_large");
    await expectError(await h.postJson("/api/studio/webhooks/some-token", { padding: "x".repeat(300 * 1024) }), 413, "payload_too_large");
  });

  it("reports a video past its deadline as failed with the `timeout` code", async () => {
    const generation = h.ledger.createGeneration({
      kind: "video",
      status: "processing",
      prompt: "stuck forever",
      model: VIDEO_MODEL,
      params: {},
      references: [],
      providerTaskId: "4242424242",
      deadlineAt: Date.now() - 1,
    });
    await h.studio.reconciler.tick();
    const response = await h.get(providerPaths.video("4242424242"));
    expect(response.status).toBe(200);
    const record = videoTaskRecordSchema.parse(await response.json());
    expect(record).toMatchObject({ id: "4242424242", status: "failed", data: [] });
    expect(record.error?.code).toBe("timeout");
    expect(h.ledger.getGeneration(generation.id)?.status).toBe("failed");
  });
});

describe("with the web app built", () => {
  let h: StudioHarness;
  let distDir: string;
  beforeAll(async () => {
    distDir = await mkdtemp(path.join(os.tmpdir(), "dist-"));
    await writeFile(path.join(distDir, "index.html"), "<!doctype html><title>Media Studio</title>");
    h = await createStudioHarness({ distDir });
  });
  afterAll(async () => {
    await h.close();
    await rm(distDir, { recursive: true, force: true });
  });

  it("opens the app on any page path", async () => {
    const response = await h.get("/gallery/some-page");
    expect(response.status).toBe(200);
    expect(await response.text()).toContain("Media Studio");
  });

  it("keeps a JSON 404 for unknown API and media paths instead of the app's page", async () => {
    await expectError(await h.get("/api/nope"), 404, "not_found");
    await expectError(await h.get("/api/studio/nope"), 404, "not_found");
    await expectError(await h.get("/media/nope/0.png"), 404, "not_found");
  });
});
