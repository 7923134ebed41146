/**
 * What exactly reaches the provider: a recording upstream (a small HTTP server speaking the
 * provider's three paths) shows the studio's key, the fields and files it forwards, the webhook
 * URL it adds, and that a rejected request never leaves the studio.
 */
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { providerPaths, type ImageResult, type TaskAcceptance, type VideoTaskRecord } from "../api/provider";
import { generationSchema, STUDIO_REQUEST_HEADER } from "../api/studio";
import { createStudioHarness, expectError, fileOf, formOf, pngBytes, type StudioHarness } from "./test/studio-harness";

const UPSTREAM_KEY = "upstream-key-for-tests";
const STUDIO_TOKEN = "studio-token-for-tests";

interface Received {
  method: string;
  path: string;
  headers: IncomingMessage["headers"];
  json: Record<string, unknown> | null;
  form: FormData | null;
}

/** A provider that answers every call successfully and remembers what it was sent. */
async function recordingUpstream() {
  const received: Received[] = [];
  let png: Buffer = Buffer.alloc(0);
  let baseUrl = "";
  const server: Server = createServer((request, response) => {
    void (async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of request) chunks.push(chunk as Buffer);
      const body = Buffer.concat(chunks);
      const path = request.url ?? "";
      const contentType = request.headers["content-type"] ?? "";
      if (path === "/files/out.png") {
        response.writeHead(200, { "content-type": "image/png", "content-length": png.length }).end(png);
        return;
      }
      const record: Received = { method: request.method ?? "", path, headers: request.headers, json: null, form: null };
      if (contentType.startsWith("application/json")) record.json = JSON.parse(body.toString("utf8")) as Record<string, unknown>;
      if (contentType.startsWith("multipart/form-data")) {
        record.form = await new Request("http://upstream.test/", { method: "POST", headers: { "content-type": contentType }, body }).formData();
      }
      received.push(record);
      const send = (status: number, value: unknown) => response.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(value));
      if (path === providerPaths.images) {
        send(200, { created: Math.floor(Date.now() / 1000), data: [{ url: `${baseUrl}/files/out.png` }] } satisfies ImageResult);
      } else if (path === providerPaths.videos) {
        send(200, { id: "777000111", status: "pending", message: "queued" } satisfies TaskAcceptance);
      } else if (path.startsWith("/api/ai/videos/")) {
        const record: VideoTaskRecord = { id: "777000111", object: "video", created: 1, model: "v", status: "processing", data: [], error: null };
        send(200, record);
      } else {
        send(404, { error: { code: "not_found", message: "no" } });
      }
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  png = await pngBytes({ width: 16, height: 16 });
  return {
    baseUrl,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

type Upstream = Awaited<ReturnType<typeof recordingUpstream>>;

describe("what the studio forwards to the provider", () => {
  let upstream: Upstream;
  let h: StudioHarness;
  const bearer = { authorization: `Bearer ${STUDIO_TOKEN}` };

  beforeAll(async () => {
    upstream = await recordingUpstream();
    h = await createStudioHarness({
      env: {
        UPSTREAM_BASE_URL: upstream.baseUrl,
        UPSTREAM_API_KEY: UPSTREAM_KEY,
        STUDIO_TOKEN,
        PUBLIC_URL: "https://studio.example.com",
        STUDIO_MAX_REFERENCE_IMAGES: "2",
      },
    });
  });
  afterAll(async () => {
    await h.close();
    await upstream.close();
  });
  beforeEach(() => {
    upstream.received.length = 0;
  });

  it("sends the provider key, and none of the client's credentials or browser headers", async () => {
    const response = await h.postJson(providerPaths.images, { prompt: "a key check", model: "m" }, {
      ...bearer,
      cookie: "studio_session=abc; other=1",
      origin: "https://studio.example.com",
    });
    expect(response.status).toBe(200);
    const [call] = upstream.received;
    expect(upstream.received).toHaveLength(1);
    expect(call?.headers.authorization).toBe(`Bearer ${UPSTREAM_KEY}`);
    expect(call?.headers.cookie).toBeUndefined();
    expect(call?.headers.origin).toBeUndefined();
    expect(call?.headers[STUDIO_REQUEST_HEADER]).toBeUndefined();
    expect(JSON.stringify(call?.headers)).not.toContain(STUDIO_TOKEN);
  });

  it("forwards a JSON request as JSON, with the validated prompt and model", async () => {
    const response = await h.postJson(providerPaths.images, {
      prompt: "  a trimmed prompt  ",
      model: " m-1 ",
      aspect_ratio: "16:9",
      image: "https://images.example.com/ref.png",
    }, bearer);
    expect(response.status).toBe(200);
    const [call] = upstream.received;
    expect(call?.json).toEqual({ prompt: "a trimmed prompt", model: "m-1", aspect_ratio: "16:9", image: "https://images.example.com/ref.png" });
    const generation = h.allGenerations().find((item) => item.prompt === "a trimmed prompt");
    expect(generation?.model).toBe("m-1");
  });

  it("forwards uploaded files as multipart `image` parts with the same bytes, in order, with URL references", async () => {
    const first = await pngBytes({ width: 10, height: 10, colour: { r: 255, g: 0, b: 0 } });
    const second = await pngBytes({ width: 12, height: 12, colour: { r: 0, g: 255, b: 0 } });
    const form = formOf({ prompt: "two frames", model: "v", size: "1280x720" }, [fileOf(first, "first.png"), fileOf(second, "second.png")]);
    const response = await h.postForm("/api/studio/videos", form, bearer);
    expect(response.status).toBe(202);
    const [call] = upstream.received;
    expect(call?.path).toBe(providerPaths.videos);
    const parts = call?.form?.getAll("image") ?? [];
    expect(parts).toHaveLength(2);
    const bytes = await Promise.all(parts.map(async (part) => (typeof part === "string" ? part : Buffer.from(await part.arrayBuffer()))));
    expect(bytes).toEqual([first, second]);
    expect(call?.form?.get("prompt")).toBe("two frames");
    expect(call?.form?.get("model")).toBe("v");
    expect(call?.form?.get("size")).toBe("1280x720");
  });

  it("keeps a link first frame before an uploaded last frame, and records them in that order", async () => {
    const last = await pngBytes({ width: 8, height: 8, colour: { r: 0, g: 0, b: 255 } });
    const form = new FormData();
    form.append("prompt", "link then file");
    form.append("model", "v");
    form.append("image_url", "https://images.example.com/first.png");
    form.append("image", new Blob([new Uint8Array(last)], { type: "image/png" }), "last.png");
    const response = await h.postForm("/api/studio/videos", form, bearer);
    expect(response.status).toBe(202);
    const generation = generationSchema.parse(await response.json());
    expect(generation.references.map((reference) => reference.sourceUrl ?? reference.name)).toEqual(["https://images.example.com/first.png", "last.png"]);
    const parts = upstream.received[0]?.form?.getAll("image") ?? [];
    expect(parts[0]).toBe("https://images.example.com/first.png");
    expect(typeof parts[1]).not.toBe("string");
  });

  it("adds its own webhook URL under PUBLIC_URL to a video submission, or forwards the caller's", async () => {
    const own = await h.postJson(providerPaths.videos, { prompt: "with our webhook", model: "v" }, bearer);
    expect(own.status).toBe(200);
    expect(upstream.received[0]?.json?.webhookUrl).toMatch(/^https:\/\/studio\.example\.com\/api\/studio\/webhooks\/[\w-]{20,}$/);

    const theirs = await h.postJson(providerPaths.videos, { prompt: "with their webhook", model: "v", callback_url: "https://hooks.example.com/x" }, bearer);
    expect(theirs.status).toBe(200);
    expect(upstream.received[1]?.json).toMatchObject({ callback_url: "https://hooks.example.com/x" });
    expect(upstream.received[1]?.json?.webhookUrl).toBeUndefined();
  });

  it("answers the provider GET from a fresh upstream read and records the state", async () => {
    const submitted = await h.postJson("/api/studio/videos", { prompt: "status read", model: "v" }, bearer);
    const generation = generationSchema.parse(await submitted.json());
    const response = await h.get(providerPaths.video("777000111"), bearer);
    expect(response.status).toBe(200);
    expect(upstream.received.map((call) => `${call.method} ${call.path}`)).toContain(`GET ${providerPaths.video("777000111")}`);
    expect(h.ledger.getGeneration(generation.id)?.status).toBe("processing");
  });

  it("sends nothing upstream for a rejected request", async () => {
    const png = await pngBytes();
    await expectError(await h.postJson(providerPaths.images, { prompt: "p".repeat(3001), model: "m" }, bearer), 400, "prompt_too_long");
    await expectError(await h.postJson(providerPaths.videos, { prompt: "p" }, bearer), 400, "model_required");
    await expectError(
      await h.postForm(providerPaths.images, formOf({ prompt: "p", model: "m" }, [fileOf(png, "a.png"), fileOf(png, "b.png"), fileOf(png, "c.png")]), bearer),
      400,
      "too_many_images",
    );
    await expectError(await h.postForm(providerPaths.videos, formOf({ prompt: "p", model: "m" }, [fileOf(Buffer.from("text"), "t.png")]), bearer), 400, "invalid_image");
    await expectError(await h.get("/api/ai/videos/abc", bearer), 400, "invalid_task_id");
    await expectError(await h.postJson(providerPaths.images, { prompt: "p", model: "m" }), 401, "unauthorized");
    expect(upstream.received).toEqual([]);
  });
});
