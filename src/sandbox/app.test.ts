import sharp from "sharp";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { errorBodySchema } from "../api/errors";
import { imageResultSchema, taskAcceptanceSchema, videoTaskRecordSchema, type VideoTaskRecord } from "../api/provider";
import { TaskManager } from "./tasks";
import { renderVideo } from "./render-video";
import {
  AUTH,
  IN_PROCESS_ORIGIN,
  formRequest,
  inProcessSandbox,
  jsonRequest,
  meanColour,
  solidPng,
  waitFor,
} from "./test/sandbox-harness";

type Sandbox = Awaited<ReturnType<typeof inProcessSandbox>>;

async function expectError(response: Response, status: number, code: string) {
  expect(response.status).toBe(status);
  const body = errorBodySchema.parse(await response.json());
  expect(body.error.code).toBe(code);
  expect(body.error.message.length).toBeGreaterThan(10);
  return body.error.message;
}

describe("sandbox provider, in process", () => {
  let sandbox: Sandbox;
  beforeEach(async () => {
    sandbox = await inProcessSandbox();
  });
  afterEach(async () => {
    await sandbox.close();
  });

  const generateImage = (body: unknown) => sandbox.app.request("/api/ai/images/generations", jsonRequest(body));
  const submitVideo = (body: unknown) => sandbox.app.request("/api/ai/videos", jsonRequest(body));
  const getTask = async (id: string): Promise<VideoTaskRecord> => {
    const response = await sandbox.app.request(`/api/ai/videos/${id}`, { headers: AUTH });
    expect(response.status).toBe(200);
    return videoTaskRecordSchema.parse(await response.json());
  };

  describe("authentication", () => {
    it("rejects a missing key and a wrong key on every endpoint with 401 and the error body", async () => {
      await expectError(await sandbox.app.request("/api/ai/images/generations", jsonRequest({ prompt: "a", model: "m" }, {})), 401, "unauthorized");
      await expectError(await sandbox.app.request("/api/ai/videos", jsonRequest({ prompt: "a", model: "m" }, { authorization: "Bearer nope" })), 401, "unauthorized");
      const response = await sandbox.app.request("/api/ai/videos/123", {});
      await expectError(response, 401, "unauthorized");
      expect(response.headers.get("www-authenticate")).toContain("Bearer");
    });
  });

  describe("image generation", () => {
    it("returns a real PNG at the URL it gives, honouring aspect_ratio", async () => {
      const response = await generateImage({ prompt: "a lighthouse at dusk", model: "sandbox-image", aspect_ratio: "16:9" });
      expect(response.status).toBe(200);
      const result = imageResultSchema.parse(await response.json());
      expect(result.created).toBeGreaterThan(1_700_000_000);
      expect(result.data).toHaveLength(1);
      const url = result.data[0]!.url;
      expect(url.startsWith(`${IN_PROCESS_ORIGIN}/files/`)).toBe(true);
      const file = await sandbox.fetchFile(url);
      expect(file.headers.get("content-type")).toBe("image/png");
      const metadata = await sharp(Buffer.from(await file.arrayBuffer())).metadata();
      expect(metadata).toMatchObject({ format: "png", width: 1024, height: 576 });
    });

    it("gives the same image for the same prompt and a different one for another prompt", async () => {
      const urlOf = async (prompt: string) => imageResultSchema.parse(await (await generateImage({ prompt, model: "m" })).json()).data[0]!.url;
      const first = await urlOf("a quiet harbour");
      expect(await urlOf("a quiet harbour")).toBe(first);
      expect(await urlOf("a noisy market")).not.toBe(first);
    });

    it("derives the output from an uploaded reference image (multipart)", async () => {
      const form = new FormData();
      form.set("prompt", "make it moodier");
      form.set("model", "sandbox-image");
      form.set("image", new Blob([new Uint8Array(await solidPng({ r: 220, g: 20, b: 20 }))], { type: "image/png" }), "red.png");
      const response = await sandbox.app.request("/api/ai/images/generations", formRequest(form));
      expect(response.status).toBe(200);
      const url = imageResultSchema.parse(await response.json()).data[0]!.url;
      const colour = await meanColour(new Uint8Array(await (await sandbox.fetchFile(url)).arrayBuffer()));
      expect(colour.r).toBeGreaterThan(colour.g + 40);
      expect(colour.r).toBeGreaterThan(colour.b + 40);
    });

    it("rejects a 3001-character prompt with prompt_too_long and accepts 3000", async () => {
      await expectError(await generateImage({ prompt: "x".repeat(3001), model: "m" }), 400, "prompt_too_long");
      expect((await generateImage({ prompt: "x".repeat(3000), model: "m" })).status).toBe(200);
    });

    it("names what is wrong with a malformed request", async () => {
      await expectError(await generateImage({ model: "m" }), 400, "prompt_required");
      await expectError(await generateImage({ prompt: "  ", model: "m" }), 400, "prompt_required");
      await expectError(await generateImage({ prompt: "a" }), 400, "model_required");
      await expectError(await generateImage({ prompt: 42, model: "m" }), 400, "invalid_field");
      await expectError(await generateImage({ prompt: "a", model: "m", aspect_ratio: "wide" }), 400, "invalid_field");
      await expectError(await generateImage({ prompt: "a", model: "m", image: "ftp://example.com/a.png" }), 400, "image_url_invalid");
      await expectError(await generateImage([1, 2]), 400, "invalid_body");
      await expectError(await sandbox.app.request("/api/ai/images/generations", { method: "POST", headers: { ...AUTH, "content-type": "application/json" }, body: "{nope" }), 400, "invalid_json");
      await expectError(await sandbox.app.request("/api/ai/images/generations", { method: "POST", headers: { ...AUTH, "content-type": "text/plain" }, body: "hi" }), 415, "unsupported_media_type");
    });

    it("refuses uploads that are not images, too many files and files that are too large", async () => {
      const small = await inProcessSandbox({ maxReferenceImages: 2, maxReferenceImageBytes: 2000 });
      try {
        const post = (form: FormData) => small.app.request("/api/ai/images/generations", formRequest(form));
        const base = () => {
          const form = new FormData();
          form.set("prompt", "p");
          form.set("model", "m");
          return form;
        };
        const png = new Uint8Array(await solidPng({ r: 0, g: 0, b: 255 }, 8, 8));

        const textFile = base();
        textFile.append("image", new Blob(["<html>hello</html>"], { type: "image/png" }), "fake.png");
        expect(await expectError(await post(textFile), 400, "invalid_image")).toContain("fake.png");

        const tooMany = base();
        for (let index = 0; index < 3; index++) tooMany.append("image", new Blob([png], { type: "image/png" }), `f${index}.png`);
        await expectError(await post(tooMany), 400, "too_many_images");

        const tooLarge = base();
        const big = new Uint8Array(5000);
        big.set(png);
        tooLarge.append("image", new Blob([big], { type: "image/png" }), "big.png");
        await expectError(await post(tooLarge), 400, "image_too_large");

        const fileAsPrompt = base();
        fileAsPrompt.set("prompt", new Blob(["text"]), "prompt.txt");
        await expectError(await post(fileAsPrompt), 400, "invalid_field");
      } finally {
        await small.close();
      }
    });

    it("reports an unreachable reference image URL", async () => {
      const message = await expectError(await generateImage({ prompt: "a", model: "m", image: "http://127.0.0.1:9/missing.png" }), 400, "image_fetch_failed");
      expect(message).toContain("http://127.0.0.1:9/missing.png");
    });

    it("fails on demand with sandbox:fail", async () => {
      await expectError(await generateImage({ prompt: "please sandbox:fail", model: "m" }), 500, "generation_failed");
    });
  });

  describe("video tasks", () => {
    it("accepts a task with a numeric id and moves it pending → processing → success with a playable MP4 and a cover", async () => {
      const response = await submitVideo({ prompt: "waves rolling in", model: "sandbox-video", size: "320x180" });
      expect(response.status).toBe(200);
      const acceptance = taskAcceptanceSchema.parse(await response.json());
      expect(acceptance.id).toMatch(/^\d+$/);
      expect(acceptance.message).toContain(acceptance.id);

      const seen = new Set<string>();
      const record = await waitFor(
        () => getTask(acceptance.id),
        (task) => {
          seen.add(task.status);
          return task.status === "success" || task.status === "failed";
        },
      );
      expect([...seen]).toEqual(["pending", "processing", "success"]);
      expect(record).toMatchObject({ id: acceptance.id, object: "video", model: "sandbox-video", status: "success", error: null });
      const output = record.data[0]!;
      const video = Buffer.from(await (await sandbox.fetchFile(output.url)).arrayBuffer());
      expect(video.subarray(4, 8).toString("latin1")).toBe("ftyp");
      const cover = await sandbox.fetchFile(output.cover_url!);
      expect(cover.headers.get("content-type")).toBe("image/png");
    });

    it("serves video files with byte ranges so browsers can seek", async () => {
      const { id } = taskAcceptanceSchema.parse(await (await submitVideo({ prompt: "range", model: "v", size: "128x72" })).json());
      const record = await waitFor(() => getTask(id), (task) => task.status === "success");
      const partial = await sandbox.app.request(record.data[0]!.url.replace(IN_PROCESS_ORIGIN, ""), { headers: { range: "bytes=0-99" } });
      expect(partial.status).toBe(206);
      expect((await partial.arrayBuffer()).byteLength).toBe(100);
    });

    it("ends a sandbox:fail task failed with the documented timeout code and no data", async () => {
      const { id } = taskAcceptanceSchema.parse(await (await submitVideo({ prompt: "sandbox:fail now", model: "v" })).json());
      const record = await waitFor(() => getTask(id), (task) => task.status === "failed");
      expect(record.data).toEqual([]);
      expect(record.error?.code).toBe("timeout");
      expect(record.error?.message).toMatch(/timed out/i);
    });

    it("rejects an over-long video prompt and bad fields before queueing", async () => {
      await expectError(await submitVideo({ prompt: "y".repeat(3001), model: "v" }), 400, "prompt_too_long");
      await expectError(await submitVideo({ prompt: "ok", model: "v", size: "big" }), 400, "invalid_field");
      await expectError(await submitVideo({ prompt: "ok", model: "v", webhookUrl: "not a url" }), 400, "invalid_field");
    });

    it("answers 404 for an unknown task and 400 for an id that is not numeric", async () => {
      await expectError(await sandbox.app.request("/api/ai/videos/999", { headers: AUTH }), 404, "task_not_found");
      await expectError(await sandbox.app.request("/api/ai/videos/abc", { headers: AUTH }), 400, "invalid_task_id");
      await expectError(await sandbox.app.request("/api/ai/videos/..%2F..%2Fetc", { headers: AUTH }), 400, "invalid_task_id");
    });

    it("keeps tasks across a restart and finishes the ones left unfinished", async () => {
      const slow = await inProcessSandbox({ pendingMs: 5000 });
      const { id } = taskAcceptanceSchema.parse(await (await slow.app.request("/api/ai/videos", jsonRequest({ prompt: "survive", model: "v", size: "128x72" }))).json());
      await slow.tasks.close();

      const fileUrl = (name: string) => `${IN_PROCESS_ORIGIN}/files/${name}`;
      const restarted = new TaskManager({ ...slow.config, pendingMs: 20 }, { renderVideo, fileUrl, log: () => {} });
      await restarted.resume();
      try {
        const record = await waitFor(async () => restarted.get(id), (task) => task?.status === "success");
        expect(record?.data[0]?.url).toContain(id);
      } finally {
        await restarted.close();
        await slow.close();
      }
    });
  });

  it("answers unknown paths with a 404 error body", async () => {
    await expectError(await sandbox.app.request("/nope"), 404, "not_found");
    await expectError(await sandbox.app.request("/files/../../etc/passwd"), 404, "not_found");
  });
});
