import { execFile } from "node:child_process";
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { createServer } from "node:http";
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import ffmpegInstaller from "@ffmpeg-installer/ffmpeg";
import sharp from "sharp";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { MediaMirror, MirrorError, UnsafeMediaPathError } from "./media-mirror";
import type { MediaMirrorOptions, OutputToMirror } from "./media-mirror";

const run = promisify(execFile);
const GENERATION_ID = "3f2b8c1e-7a4d-4e2a-9b1c-0d5e6f7a8b9c";
const WEBP_RIFF = Buffer.from("RIFF");
const WEBP_MARK = Buffer.from("WEBP");

type Route = (request: IncomingMessage, response: ServerResponse) => void;

let fixtureDir = "";
let pngImage: Buffer = Buffer.alloc(0);
let gifImage: Buffer = Buffer.alloc(0);
let mp4Video: Buffer = Buffer.alloc(0);
let shortMp4Video: Buffer = Buffer.alloc(0);
let coverImage: Buffer = Buffer.alloc(0);
let server: Server;
let baseUrl = "";
const sockets = new Set<Socket>();
/** How many times each path was requested. */
const hits = new Map<string, number>();

function serve(body: Buffer, contentType: string): Route {
  return (_request, response) => {
    response.writeHead(200, { "content-type": contentType, "content-length": body.length });
    response.end(body);
  };
}

const routes: Record<string, Route> = {
  "/image.png": (request, response) => serve(pngImage, "image/png")(request, response),
  "/image-untyped": (request, response) => serve(pngImage, "application/octet-stream")(request, response),
  "/animated.gif": (request, response) => serve(gifImage, "image/gif")(request, response),
  "/video.mp4": (request, response) => serve(mp4Video, "video/mp4")(request, response),
  "/short-video": (request, response) => serve(shortMp4Video, "binary/octet-stream")(request, response),
  "/broken.png": serve(Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(500, 7)]), "image/png"),
  "/cover.png": (request, response) => serve(coverImage, "image/png")(request, response),
  "/page.html": serve(Buffer.from("<!doctype html><html><body>Sign in</body></html>"), "text/html; charset=utf-8"),
  "/missing": (_request, response) => {
    response.writeHead(404, { "content-type": "text/plain" });
    response.end("not found");
  },
  "/unavailable": (_request, response) => {
    response.writeHead(503, { "content-type": "text/plain" });
    response.end("try later");
  },
  "/stall": (_request, response) => {
    response.writeHead(200, { "content-type": "video/mp4", "content-length": mp4Video.length });
    response.write(mp4Video.subarray(0, 1024));
    // ...and never the rest.
  },
  "/huge-declared": (_request, response) => {
    response.writeHead(200, { "content-type": "video/mp4", "content-length": 10_000_000 });
    response.end();
  },
  "/huge-streamed": (_request, response) => {
    // Chunked, so only counting the bytes can catch it.
    response.writeHead(200, { "content-type": "video/mp4" });
    const chunk = Buffer.alloc(64 * 1024, 1);
    let sent = 0;
    const pump = (): void => {
      while (sent < 10_000_000 && !response.destroyed) {
        sent += chunk.length;
        if (!response.write(chunk)) {
          response.once("drain", pump);
          return;
        }
      }
      response.end();
    };
    pump();
  },
};

beforeAll(async () => {
  fixtureDir = await mkdtemp(join(tmpdir(), "media-mirror-fixtures-"));
  pngImage = await sharp({ create: { width: 800, height: 600, channels: 3, background: { r: 200, g: 60, b: 40 } } })
    .png()
    .toBuffer();
  gifImage = await sharp({ create: { width: 200, height: 100, channels: 3, background: { r: 20, g: 160, b: 40 } } })
    .gif()
    .toBuffer();
  coverImage = await sharp({ create: { width: 320, height: 180, channels: 3, background: { r: 30, g: 40, b: 220 } } })
    .png()
    .toBuffer();
  mp4Video = await encodeTestVideo("320x180", 1);
  shortMp4Video = await encodeTestVideo("160x90", 0.2);

  server = createServer((request, response) => {
    const path = new URL(request.url ?? "/", "http://localhost").pathname;
    hits.set(path, (hits.get(path) ?? 0) + 1);
    const route = routes[path];
    if (route) route(request, response);
    else routes["/missing"]?.(request, response);
  });
  server.on("connection", (socket: Socket) => {
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

async function encodeTestVideo(size: string, seconds: number): Promise<Buffer> {
  const videoPath = join(fixtureDir, `fixture-${size}-${seconds}.mp4`);
  await run(ffmpegInstaller.path, [
    ...["-hide_banner", "-loglevel", "error", "-nostdin", "-y"],
    ...["-f", "lavfi", "-i", `testsrc=size=${size}:rate=10`, "-t", String(seconds), "-pix_fmt", "yuv420p", "-c:v", "libx264", videoPath],
  ]);
  return readFile(videoPath);
}

afterAll(async () => {
  for (const socket of sockets) socket.destroy();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await rm(fixtureDir, { recursive: true, force: true });
});

let dataDir = "";

beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), "media-mirror-"));
  hits.clear();
});

afterEach(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

function createMirror(options: Partial<MediaMirrorOptions> = {}): MediaMirror {
  return new MediaMirror({ dataDir, fetchTimeoutMs: 10_000, maxBytes: 1024 * 1024, ...options });
}

function imageOutput(path: string, overrides: Partial<OutputToMirror> = {}): OutputToMirror {
  return { generationId: GENERATION_ID, index: 0, kind: "image", providerUrl: `${baseUrl}${path}`, providerCoverUrl: null, ...overrides };
}

function videoOutput(path: string, coverPath: string | null, overrides: Partial<OutputToMirror> = {}): OutputToMirror {
  return {
    generationId: GENERATION_ID,
    index: 0,
    kind: "video",
    providerUrl: `${baseUrl}${path}`,
    providerCoverUrl: coverPath === null ? null : `${baseUrl}${coverPath}`,
    ...overrides,
  };
}

async function generationFolderEntries(): Promise<string[]> {
  return readdir(join(dataDir, "media", GENERATION_ID)).catch(() => []);
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error("Expected the promise to reject.");
    },
    (error: unknown) => error,
  );
}

async function expectMirrorError(promise: Promise<unknown>, retryable: boolean): Promise<MirrorError> {
  const error = await rejection(promise);
  expect(error).toBeInstanceOf(MirrorError);
  expect((error as MirrorError).retryable).toBe(retryable);
  return error as MirrorError;
}

async function expectWebpThumbnail(mirror: MediaMirror, relativePath: string | null, expected: { width: number; height: number }): Promise<void> {
  expect(relativePath).not.toBeNull();
  const bytes = await readFile(mirror.resolve(relativePath ?? ""));
  expect(bytes.subarray(0, 4).equals(WEBP_RIFF) && bytes.subarray(8, 12).equals(WEBP_MARK)).toBe(true);
  const metadata = await sharp(bytes).metadata();
  expect(metadata.format).toBe("webp");
  expect({ width: metadata.width, height: metadata.height }).toEqual(expected);
}

describe("MediaMirror.mirrorOutput for images", () => {
  it("mirrors the image byte for byte, with a WebP thumbnail at most 480 wide that keeps the aspect ratio", async () => {
    const mirror = createMirror();
    const result = await mirror.mirrorOutput(imageOutput("/image.png", { index: 2 }));

    expect(result).toEqual({
      index: 2,
      filePath: `media/${GENERATION_ID}/2.png`,
      coverPath: null,
      thumbnailPath: `media/${GENERATION_ID}/2-thumb.webp`,
      width: 800,
      height: 600,
    });
    expect((await readFile(join(dataDir, result.filePath))).equals(pngImage)).toBe(true);
    await expectWebpThumbnail(mirror, result.thumbnailPath, { width: 480, height: 360 });
    expect((await generationFolderEntries()).sort()).toEqual(["2-thumb.webp", "2.png"]);
  });

  it("names the file by its bytes when the content type says nothing", async () => {
    const result = await createMirror().mirrorOutput(imageOutput("/image-untyped"));
    expect(result.filePath).toBe(`media/${GENERATION_ID}/0.png`);
  });

  it("never upscales a thumbnail and keeps GIFs as .gif", async () => {
    const mirror = createMirror();
    const result = await mirror.mirrorOutput(imageOutput("/animated.gif"));
    expect(result.filePath).toBe(`media/${GENERATION_ID}/0.gif`);
    expect({ width: result.width, height: result.height }).toEqual({ width: 200, height: 100 });
    await expectWebpThumbnail(mirror, result.thumbnailPath, { width: 200, height: 100 });
  });

  it("honours a custom thumbnail width", async () => {
    const mirror = createMirror({ thumbnailWidth: 200 });
    const result = await mirror.mirrorOutput(imageOutput("/image.png"));
    await expectWebpThumbnail(mirror, result.thumbnailPath, { width: 200, height: 150 });
  });

  it("rejects an image URL that returns HTML, leaving nothing behind", async () => {
    const error = await expectMirrorError(createMirror().mirrorOutput(imageOutput("/page.html")), false);
    expect(error.message).toContain("/page.html");
    expect(await generationFolderEntries()).toEqual([]);
  });

  it("keeps an image sharp cannot decode, without a thumbnail or dimensions", async () => {
    const result = await createMirror().mirrorOutput(imageOutput("/broken.png"));
    expect(result).toMatchObject({ filePath: `media/${GENERATION_ID}/0.png`, thumbnailPath: null, width: null, height: null });
    expect(await generationFolderEntries()).toEqual(["0.png"]);
  });

  it("can mirror the same output twice, overwriting the first copy", async () => {
    const mirror = createMirror();
    const first = await mirror.mirrorOutput(imageOutput("/image.png"));
    const second = await mirror.mirrorOutput(imageOutput("/image.png"));
    expect(second).toEqual(first);
    expect((await readFile(join(dataDir, second.filePath))).equals(pngImage)).toBe(true);
    expect((await generationFolderEntries()).sort()).toEqual(["0-thumb.webp", "0.png"]);
  });
});

describe("MediaMirror.mirrorOutput for videos", () => {
  it("mirrors the video and its cover, with a thumbnail from the cover", async () => {
    const mirror = createMirror();
    const result = await mirror.mirrorOutput(videoOutput("/video.mp4", "/cover.png", { index: 1 }));

    expect(result).toEqual({
      index: 1,
      filePath: `media/${GENERATION_ID}/1.mp4`,
      coverPath: `media/${GENERATION_ID}/1-cover.png`,
      thumbnailPath: `media/${GENERATION_ID}/1-thumb.webp`,
      width: 320,
      height: 180,
    });
    expect((await readFile(join(dataDir, result.filePath))).equals(mp4Video)).toBe(true);
    expect((await readFile(join(dataDir, result.coverPath ?? ""))).equals(coverImage)).toBe(true);
    await expectWebpThumbnail(mirror, result.thumbnailPath, { width: 320, height: 180 });
    expect((await generationFolderEntries()).sort()).toEqual(["1-cover.png", "1-thumb.webp", "1.mp4"]);
  });

  it("extracts a cover frame from a video that has none", async () => {
    const mirror = createMirror();
    const result = await mirror.mirrorOutput(videoOutput("/video.mp4", null));

    expect(result).toEqual({
      index: 0,
      filePath: `media/${GENERATION_ID}/0.mp4`,
      coverPath: `media/${GENERATION_ID}/0-cover.png`,
      thumbnailPath: `media/${GENERATION_ID}/0-thumb.webp`,
      width: 320,
      height: 180,
    });
    const cover = await sharp(await readFile(join(dataDir, result.coverPath ?? ""))).metadata();
    expect({ format: cover.format, width: cover.width, height: cover.height }).toEqual({ format: "png", width: 320, height: 180 });
    await expectWebpThumbnail(mirror, result.thumbnailPath, { width: 320, height: 180 });
  });

  it("takes the first frame of a video shorter than half a second, naming it by its bytes", async () => {
    const result = await createMirror().mirrorOutput(videoOutput("/short-video", null));
    expect(result).toMatchObject({ filePath: `media/${GENERATION_ID}/0.mp4`, coverPath: `media/${GENERATION_ID}/0-cover.png`, width: 160, height: 90 });
  });

  it("falls back to an extracted frame when the provider's cover is gone", async () => {
    const result = await createMirror().mirrorOutput(videoOutput("/video.mp4", "/missing"));
    expect(result.coverPath).toBe(`media/${GENERATION_ID}/0-cover.png`);
    expect(result.thumbnailPath).toBe(`media/${GENERATION_ID}/0-thumb.webp`);
  });

  it("fails retryably, before downloading the video, when the cover is temporarily unavailable", async () => {
    await expectMirrorError(createMirror().mirrorOutput(videoOutput("/video.mp4", "/unavailable")), true);
    expect(hits.get("/video.mp4")).toBeUndefined();
    expect(await generationFolderEntries()).toEqual([]);
  });

  it("rejects a video URL that returns HTML", async () => {
    await expectMirrorError(createMirror().mirrorOutput(videoOutput("/page.html", "/cover.png")), false);
    expect(await generationFolderEntries()).toEqual([]);
  });
});

describe("MediaMirror download failures", () => {
  it("treats a 404 as permanent and never prints the query string", async () => {
    const output = imageOutput("/missing", { providerUrl: `${baseUrl}/missing?signature=top-secret&expires=1` });
    const error = await expectMirrorError(createMirror().mirrorOutput(output), false);
    expect(error.message).toContain(`${baseUrl}/missing`);
    expect(error.message).toContain("404");
    expect(error.message).not.toContain("top-secret");
  });

  it("treats a 503 as retryable", async () => {
    const error = await expectMirrorError(createMirror().mirrorOutput(imageOutput("/unavailable")), true);
    expect(error.message).toContain("503");
  });

  it("treats a refused connection as retryable", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const output = imageOutput("/", { providerUrl: `http://127.0.0.1:${port}/image.png?token=secret` });
    const error = await expectMirrorError(createMirror().mirrorOutput(output), true);
    expect(error.message).not.toContain("secret");
  });

  it("gives up on a body that stalls after fetchTimeoutMs, leaving no file or temp file", async () => {
    const started = Date.now();
    const error = await expectMirrorError(createMirror({ fetchTimeoutMs: 300 }).mirrorOutput(videoOutput("/stall", null)), true);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(error.message).toMatch(/300 ms/);
    expect(await generationFolderEntries()).toEqual([]);
  });

  it("refuses a body whose Content-Length is over maxBytes", async () => {
    await expectMirrorError(createMirror({ maxBytes: 1_000_000 }).mirrorOutput(videoOutput("/huge-declared", null)), false);
    expect(await generationFolderEntries()).toEqual([]);
  });

  it("stops streaming a body once it passes maxBytes, leaving no file behind", async () => {
    const error = await expectMirrorError(createMirror({ maxBytes: 1_000_000 }).mirrorOutput(videoOutput("/huge-streamed", null)), false);
    expect(error.message).toContain("1000000");
    expect(await generationFolderEntries()).toEqual([]);
  });

  it("rejects with the caller's reason when the caller aborts, leaving nothing behind", async () => {
    const controller = new AbortController();
    const reason = new Error("shutting down");
    setTimeout(() => controller.abort(reason), 100);
    const error = await rejection(createMirror().mirrorOutput(videoOutput("/stall", null), controller.signal));
    expect(error).toBe(reason);
    expect(await generationFolderEntries()).toEqual([]);
  });

  it("refuses generation ids that are not safe folder names", async () => {
    await expectMirrorError(createMirror().mirrorOutput(imageOutput("/image.png", { generationId: "../escape" })), false);
    expect(hits.size).toBe(0);
  });
});

describe("MediaMirror.removeFiles and resolve", () => {
  it("deletes the files, ignores missing ones and removes the emptied generation folder", async () => {
    const mirror = createMirror();
    const result = await mirror.mirrorOutput(videoOutput("/video.mp4", "/cover.png"));
    const paths = [result.filePath, result.coverPath, result.thumbnailPath].filter((path): path is string => path !== null);

    await mirror.removeFiles([...paths, `media/${GENERATION_ID}/7.png`]);

    expect(await readdir(join(dataDir, "media"))).toEqual([]);
  });

  it("keeps a generation folder that still holds other files", async () => {
    const mirror = createMirror();
    const first = await mirror.mirrorOutput(imageOutput("/image.png", { index: 0 }));
    await mirror.mirrorOutput(imageOutput("/image.png", { index: 1 }));

    await mirror.removeFiles([first.filePath]);

    expect((await generationFolderEntries()).sort()).toEqual(["0-thumb.webp", "1-thumb.webp", "1.png"]);
  });

  it("refuses paths that escape the data dir, before deleting anything", async () => {
    const mirror = createMirror();
    const result = await mirror.mirrorOutput(imageOutput("/image.png"));
    const outside = join(dataDir, "..", `outside-${Date.now()}.txt`);
    await writeFile(outside, "keep me");
    try {
      await expect(mirror.removeFiles([result.filePath, `../${outside.split("/").pop() ?? ""}`])).rejects.toBeInstanceOf(UnsafeMediaPathError);
      expect(await readFile(outside, "utf8")).toBe("keep me");
      expect((await generationFolderEntries()).sort()).toEqual(["0-thumb.webp", "0.png"]);
    } finally {
      await rm(outside, { force: true });
    }
  });

  it("resolves paths inside the data dir and throws for anything else", () => {
    const mirror = createMirror();
    expect(mirror.resolve(`media/${GENERATION_ID}/0.png`)).toBe(join(dataDir, "media", GENERATION_ID, "0.png"));
    for (const path of ["../etc/passwd", "media/../../x", "/etc/passwd", "", ".", "media/\0x"]) {
      expect(() => mirror.resolve(path), path).toThrow(UnsafeMediaPathError);
    }
  });
});
