import { spawn } from "node:child_process";
import type { ChildProcessByStdio } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdir, rename, rm, writeFile } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import type { Readable, Writable } from "node:stream";
import ffmpegInstaller from "@ffmpeg-installer/ffmpeg";
import { createCanvas } from "@napi-rs/canvas";
import type { Canvas, SKRSContext2D } from "@napi-rs/canvas";
import {
  createScene,
  drawBackground,
  drawPromptBand,
  drawReferenceOverlay,
  drawScene,
  encodeOpaquePng,
  layoutPromptBand,
  loadReferenceCanvas,
} from "./render-image";
import type { ImageDimensions, Scene } from "./render-image";

export interface RenderVideoOptions {
  prompt: string;
  /** "WIDTHxHEIGHT", e.g. "1280x720"; default "640x360"; each side clamped to 64..1920 and rounded to even. */
  size?: string;
  /** Reference images: [first] or [first, last]. */
  frames?: Uint8Array[];
  durationSeconds?: number;
  fps?: number;
  outputPath: string;
  /** Where the cover PNG (the first frame) goes. */
  coverPath: string;
  /** Aborting kills ffmpeg, removes partial output and rejects with the signal's reason. */
  signal?: AbortSignal;
}

export interface RenderedVideo {
  width: number;
  height: number;
  durationSeconds: number;
}

const DEFAULT_SIZE: ImageDimensions = { width: 640, height: 360 };
const MIN_SIDE = 64;
const MAX_SIDE = 1920;
const DEFAULT_DURATION_SECONDS = 3;
const MAX_DURATION_SECONDS = 60;
const DEFAULT_FPS = 24;
const MAX_FPS = 60;
/** How far the camera zooms into a reference image over the clip. */
const MAX_ZOOM = 1.12;
const STDERR_TAIL_CHARS = 2000;

export async function renderVideo(options: RenderVideoOptions): Promise<RenderedVideo> {
  const { signal } = options;
  signal?.throwIfAborted();
  const { width, height } = parseVideoSize(options.size);
  const fps = Math.round(clampOr(options.fps, 1, MAX_FPS, DEFAULT_FPS));
  const frameCount = Math.max(1, Math.round(clampOr(options.durationSeconds, 0, MAX_DURATION_SECONDS, DEFAULT_DURATION_SECONDS) * fps));

  const scene = createScene(options.prompt);
  const references = await loadReferences(options.frames ?? [], { width, height });
  signal?.throwIfAborted();

  const canvas = createCanvas(width, height);
  const ctx = canvas.getContext("2d");
  const band = layoutPromptBand(ctx, options.prompt, width, height);
  const paintPicture = picturePainter(ctx, scene, references, { width, height });
  const paintFrame = (time: number): void => {
    paintPicture(time);
    drawPromptBand(ctx, band, width, height);
  };

  await Promise.all([mkdir(dirname(options.outputPath), { recursive: true }), mkdir(dirname(options.coverPath), { recursive: true })]);
  const videoTemp = temporaryPathBeside(options.outputPath);
  const coverTemp = temporaryPathBeside(options.coverPath);
  const ffmpeg = startFfmpeg(encoderArguments({ width, height }, fps, videoTemp));
  const killFfmpeg = (): void => {
    ffmpeg.child.kill("SIGKILL");
  };
  signal?.addEventListener("abort", killFfmpeg, { once: true });

  try {
    const cover = await streamFrames(ffmpeg, canvas, paintFrame, frameCount, signal);
    ffmpeg.child.stdin.end();
    await ffmpeg.exited;
    signal?.throwIfAborted();
    // The cover goes in place first, so a video that exists always has its cover.
    await writeFile(coverTemp, cover);
    await rename(coverTemp, options.coverPath);
    await rename(videoTemp, options.outputPath);
    return { width, height, durationSeconds: frameCount / fps };
  } catch (error) {
    killFfmpeg();
    await ffmpeg.exited.catch(() => undefined);
    await Promise.all([rm(videoTemp, { force: true }), rm(coverTemp, { force: true })]);
    throw signal?.aborted ? signal.reason : error;
  } finally {
    signal?.removeEventListener("abort", killFfmpeg);
  }
}

/** "1280x720" -> 1280x720; missing or malformed -> 640x360. Each side clamped to 64..1920 and rounded to even. */
export function parseVideoSize(size: string | undefined): ImageDimensions {
  const match = /^\s*(\d+)\s*[xX]\s*(\d+)\s*$/.exec(size ?? "");
  if (!match) return DEFAULT_SIZE;
  return { width: evenSide(Number(match[1])), height: evenSide(Number(match[2])) };
}

function evenSide(value: number): number {
  return Math.round(Math.min(MAX_SIDE, Math.max(MIN_SIDE, value)) / 2) * 2;
}

function clampOr(value: number | undefined, min: number, max: number, fallback: number): number {
  if (value === undefined || !Number.isFinite(value) || value <= min) return fallback;
  return Math.min(max, value);
}

function temporaryPathBeside(path: string): string {
  return join(dirname(path), `.${basename(path)}.${randomUUID()}.tmp`);
}

// ---- Pictures ----

type PaintPicture = (time: number) => void;

/** At most two references are used: the clip starts on the first and ends on the last. */
async function loadReferences(frames: Uint8Array[], size: ImageDimensions): Promise<Canvas[]> {
  // Loaded a little larger than the video, so zooming in stays sharp.
  const width = Math.ceil(size.width * MAX_ZOOM);
  const height = Math.ceil(size.height * MAX_ZOOM);
  return Promise.all(frames.slice(0, 2).map((bytes) => loadReferenceCanvas(bytes, width, height)));
}

function picturePainter(ctx: SKRSContext2D, scene: Scene, references: Canvas[], size: ImageDimensions): PaintPicture {
  const [first, last] = references;
  const { width, height } = size;
  const pan = { x: Math.cos(scene.gradientAngle), y: Math.sin(scene.gradientAngle) };

  if (!first) return (time) => drawScene(ctx, scene, width, height, time);
  return (time) => {
    const eased = smoothstep(time);
    drawBackground(ctx, scene, width, height, time);
    drawZoomedImage(ctx, first, size, 1 + (MAX_ZOOM - 1) * eased, pan, eased);
    if (last) {
      ctx.save();
      ctx.globalAlpha = eased;
      // The last image zooms out as it fades in, arriving exactly unzoomed and opaque.
      drawZoomedImage(ctx, last, size, MAX_ZOOM - (MAX_ZOOM - 1) * eased, { x: -pan.x, y: -pan.y }, 1 - eased);
      ctx.restore();
    }
    drawReferenceOverlay(ctx, scene, width, height, time);
  };
}

/** Draws an image covering the canvas, scaled by `zoom` and shifted towards `pan` by `panAmount` (0..1) of the slack. */
function drawZoomedImage(
  ctx: SKRSContext2D,
  image: Canvas,
  size: ImageDimensions,
  zoom: number,
  pan: { x: number; y: number },
  panAmount: number,
): void {
  const drawnWidth = size.width * zoom;
  const drawnHeight = size.height * zoom;
  const slackX = (drawnWidth - size.width) / 2;
  const slackY = (drawnHeight - size.height) / 2;
  const x = -slackX + pan.x * slackX * panAmount;
  const y = -slackY + pan.y * slackY * panAmount;
  ctx.drawImage(image, x, y, drawnWidth, drawnHeight);
}

function smoothstep(time: number): number {
  const t = Math.min(1, Math.max(0, time));
  return t * t * (3 - 2 * t);
}

// ---- ffmpeg ----

interface RunningFfmpeg {
  child: ChildProcessByStdio<Writable, null, Readable>;
  /** Resolves when ffmpeg exits cleanly; rejects with the tail of its stderr otherwise. */
  exited: Promise<void>;
}

function encoderArguments(size: ImageDimensions, fps: number, outputPath: string): string[] {
  return [
    ...["-hide_banner", "-loglevel", "error", "-nostdin"],
    ...["-f", "rawvideo", "-pix_fmt", "rgba", "-s", `${size.width}x${size.height}`, "-r", String(fps), "-i", "-"],
    ...["-an", "-c:v", "libx264", "-preset", "veryfast", "-crf", "23", "-pix_fmt", "yuv420p"],
    // Convert with BT.709 and say so, so browsers show the colours we drew.
    ...["-vf", "scale=out_color_matrix=bt709:out_range=tv"],
    ...["-colorspace", "bt709", "-color_primaries", "bt709", "-color_trc", "bt709", "-color_range", "tv"],
    ...["-movflags", "+faststart", "-f", "mp4", "-y", outputPath],
  ];
}

function startFfmpeg(args: string[]): RunningFfmpeg {
  const child = spawn(ffmpegInstaller.path, args, { stdio: ["pipe", "ignore", "pipe"] });
  let stderr = "";
  child.stderr.setEncoding("utf8");
  child.stderr.on("data", (chunk: string) => {
    stderr = (stderr + chunk).slice(-STDERR_TAIL_CHARS);
  });
  // EPIPE when ffmpeg dies early: its exit code and stderr say why, so that is what gets reported.
  child.stdin.on("error", () => undefined);

  const exited = new Promise<void>((resolve, reject) => {
    child.once("error", (error) => reject(new Error(`ffmpeg could not be started (${ffmpegInstaller.path}): ${error.message}`, { cause: error })));
    child.once("close", (code, signal) => {
      if (code === 0) resolve();
      else reject(new Error(`ffmpeg failed (${code === null ? `killed by ${signal}` : `exit code ${code}`}): ${stderr.trim() || "no output"}`));
    });
  });
  // Awaited later; this only stops an early failure from counting as unhandled meanwhile.
  exited.catch(() => undefined);
  return { child, exited };
}

/** Paints and pipes every frame to ffmpeg, waiting whenever its stdin is full. Returns the first frame as PNG, for the cover. */
async function streamFrames(
  ffmpeg: RunningFfmpeg,
  canvas: Canvas,
  paintFrame: (time: number) => void,
  frameCount: number,
  signal: AbortSignal | undefined,
): Promise<Buffer> {
  let cover: Buffer | undefined;
  for (let index = 0; index < frameCount; index += 1) {
    signal?.throwIfAborted();
    paintFrame(frameCount === 1 ? 0 : index / (frameCount - 1));
    if (index === 0) cover = await encodeOpaquePng(canvas);
    // Every frame is opaque, so the canvas's premultiplied pixels are plain RGBA.
    await writeFrame(ffmpeg, canvas.data());
  }
  if (!cover) throw new Error("No frames were rendered.");
  return cover;
}

async function writeFrame(ffmpeg: RunningFfmpeg, frame: Buffer): Promise<void> {
  const { stdin } = ffmpeg.child;
  if (!stdin.destroyed && stdin.write(frame)) return;
  if (!stdin.destroyed) await Promise.race([drainedOrClosed(stdin), ffmpeg.exited.catch(() => undefined)]);
  if (stdin.destroyed || hasExited(ffmpeg)) {
    // ffmpeg stopped reading: its own failure (with stderr) is the useful error.
    await ffmpeg.exited;
    throw new Error("ffmpeg stopped reading frames before the video was complete.");
  }
}

function drainedOrClosed(stream: Writable): Promise<void> {
  return new Promise((resolve) => {
    const settle = (): void => {
      stream.off("drain", settle);
      stream.off("close", settle);
      resolve();
    };
    stream.on("drain", settle);
    stream.on("close", settle);
  });
}

function hasExited(ffmpeg: RunningFfmpeg): boolean {
  return ffmpeg.child.exitCode !== null || ffmpeg.child.signalCode !== null;
}
