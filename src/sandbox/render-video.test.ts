import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import ffmpegInstaller from "@ffmpeg-installer/ffmpeg";
import sharp from "sharp";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { parseVideoSize, renderVideo } from "./render-video";

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const RED = { r: 220, g: 30, b: 30 };
const BLUE = { r: 30, g: 40, b: 220 };

const run = promisify(execFile);
let dir = "";

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "render-video-"));
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

function paths(name: string): { outputPath: string; coverPath: string } {
  return { outputPath: join(dir, "nested", `${name}.mp4`), coverPath: join(dir, "covers", `${name}.png`) };
}

/** What ffmpeg itself says about a file: `ffmpeg -i` prints the stream description and exits non-zero (no output given). */
async function describeVideo(path: string): Promise<string> {
  const result = await run(ffmpegInstaller.path, ["-hide_banner", "-i", path]).catch((error: { stderr?: string }) => error);
  return result.stderr ?? "";
}

async function extractFrame(videoPath: string, frameIndex: number): Promise<Buffer> {
  const framePath = join(dir, `frame-${frameIndex}.png`);
  await run(ffmpegInstaller.path, ["-v", "error", "-y", "-i", videoPath, "-vf", `select=eq(n\\,${frameIndex})`, "-vframes", "1", framePath]);
  return readFile(framePath);
}

async function meanColour(image: Uint8Array): Promise<{ r: number; g: number; b: number }> {
  const { channels } = await sharp(image).stats();
  return { r: channels[0]?.mean ?? NaN, g: channels[1]?.mean ?? NaN, b: channels[2]?.mean ?? NaN };
}

function expectColourNear(actual: { r: number; g: number; b: number }, expected: { r: number; g: number; b: number }, tolerance = 50): void {
  expect(Math.abs(actual.r - expected.r), `red ${actual.r}`).toBeLessThan(tolerance);
  expect(Math.abs(actual.g - expected.g), `green ${actual.g}`).toBeLessThan(tolerance);
  expect(Math.abs(actual.b - expected.b), `blue ${actual.b}`).toBeLessThan(tolerance);
}

function solidImage(colour: { r: number; g: number; b: number }): Promise<Buffer> {
  return sharp({ create: { width: 320, height: 240, channels: 3, background: colour } }).png().toBuffer();
}

describe("parseVideoSize", () => {
  it("reads WIDTHxHEIGHT, clamps each side to 64..1920 and rounds to even", () => {
    expect(parseVideoSize("1280x720")).toEqual({ width: 1280, height: 720 });
    expect(parseVideoSize("641x361")).toEqual({ width: 642, height: 362 });
    expect(parseVideoSize("4000x10")).toEqual({ width: 1920, height: 64 });
  });

  it("defaults to 640x360", () => {
    expect(parseVideoSize(undefined)).toEqual({ width: 640, height: 360 });
    expect(parseVideoSize("big")).toEqual({ width: 640, height: 360 });
  });
});

describe("renderVideo", () => {
  it("writes a 3 s 640x360 H.264 MP4 and a PNG cover by default", async () => {
    const { outputPath, coverPath } = paths("default");
    const result = await renderVideo({ prompt: "waves rolling onto a beach", outputPath, coverPath });

    expect(result).toEqual({ width: 640, height: 360, durationSeconds: 3 });
    const video = await readFile(outputPath);
    expect(video.subarray(4, 8).toString("latin1")).toBe("ftyp");
    const description = await describeVideo(outputPath);
    expect(description).toContain("Video: h264");
    expect(description).toContain("yuv420p");
    expect(description).toContain("640x360");
    expect(description).toMatch(/Duration: 00:00:0(2\.9|3\.0)/);

    const cover = await readFile(coverPath);
    expect(cover.subarray(0, 8)).toEqual(PNG_SIGNATURE);
    const coverMetadata = await sharp(cover).metadata();
    expect({ width: coverMetadata.width, height: coverMetadata.height }).toEqual({ width: 640, height: 360 });
    expect(await readdir(join(dir, "nested"))).toEqual(["default.mp4"]);
  });

  it("encodes the requested size, rounded to even, at the requested duration", async () => {
    const { outputPath, coverPath } = paths("odd-size");
    const result = await renderVideo({ prompt: "odd", size: "333x201", durationSeconds: 1, fps: 12, outputPath, coverPath });

    expect(result).toEqual({ width: 334, height: 202, durationSeconds: 1 });
    const description = await describeVideo(outputPath);
    expect(description).toContain("334x202");
    expect(description).toMatch(/Duration: 00:00:01\.0/);
  });

  it("animates: the picture changes over the clip", async () => {
    const { outputPath, coverPath } = paths("animated");
    await renderVideo({ prompt: "drifting shapes", durationSeconds: 1, fps: 12, outputPath, coverPath });

    const [first, last] = await Promise.all([extractFrame(outputPath, 0), extractFrame(outputPath, 11)]);
    const [firstPixels, lastPixels] = await Promise.all([first, last].map((frame) => sharp(frame).raw().toBuffer()));
    expect(firstPixels?.equals(lastPixels ?? Buffer.alloc(0))).toBe(false);
  });

  it("starts from a single reference frame", async () => {
    const { outputPath, coverPath } = paths("one-frame");
    await renderVideo({ prompt: "slow zoom", frames: [await solidImage(RED)], durationSeconds: 1, fps: 12, outputPath, coverPath });

    expectColourNear(await meanColour(await extractFrame(outputPath, 0)), RED);
    expectColourNear(await meanColour(await readFile(coverPath)), RED);
  });

  it("moves from the first reference frame to the last", async () => {
    const { outputPath, coverPath } = paths("two-frames");
    const frames = [await solidImage(RED), await solidImage(BLUE)];
    await renderVideo({ prompt: "red to blue", frames, durationSeconds: 1, fps: 12, outputPath, coverPath });

    expectColourNear(await meanColour(await extractFrame(outputPath, 0)), RED);
    expectColourNear(await meanColour(await extractFrame(outputPath, 11)), BLUE);
  });

  it("rejects when aborted and leaves no output behind", async () => {
    const { outputPath, coverPath } = paths("aborted");
    const controller = new AbortController();
    const rendering = renderVideo({ prompt: "a long one", durationSeconds: 30, outputPath, coverPath, signal: controller.signal });
    setTimeout(() => controller.abort(), 150);

    await expect(rendering).rejects.toMatchObject({ name: "AbortError" });
    expect(existsSync(outputPath)).toBe(false);
    expect(existsSync(coverPath)).toBe(false);
    expect(await readdir(join(dir, "nested"))).toEqual([]);
    expect(await readdir(join(dir, "covers"))).toEqual([]);
  });

  it("rejects at once when the signal is already aborted", async () => {
    const { outputPath, coverPath } = paths("pre-aborted");
    await expect(renderVideo({ prompt: "never", outputPath, coverPath, signal: AbortSignal.abort() })).rejects.toMatchObject({
      name: "AbortError",
    });
    expect(existsSync(outputPath)).toBe(false);
  });
});
