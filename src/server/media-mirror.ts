import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { createWriteStream } from "node:fs";
import { once } from "node:events";
import { mkdir, rename, rmdir, unlink, writeFile } from "node:fs/promises";
import { dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as NodeReadableStream } from "node:stream/web";
import ffmpegInstaller from "@ffmpeg-installer/ffmpeg";
import sharp from "sharp";
import { IMAGE_SNIFF_BYTES, imageExtensions, sniffImageType } from "../api/image-types";
import type { MirroredOutput } from "./ledger/ledger";

// Thumbnails are made once per file; libvips' operation cache would only hold decoded pixels in memory.
sharp.cache(false);

export interface MediaMirrorOptions {
  /** Absolute; files go under <dataDir>/media/<generationId>/. */
  dataDir: string;
  /** Per download, for the whole body. */
  fetchTimeoutMs: number;
  /** Per file; a larger download fails with a non-retryable MirrorError. */
  maxBytes: number;
  /** Default 480; the height follows the aspect ratio and images are never upscaled. */
  thumbnailWidth?: number;
}

export interface OutputToMirror {
  /** Becomes a folder name, so it must match [A-Za-z0-9-]+. */
  generationId: string;
  index: number;
  kind: "image" | "video";
  providerUrl: string;
  providerCoverUrl: string | null;
}

/** A download or its validation failed; `retryable` says whether trying again later can help. */
export class MirrorError extends Error {
  override readonly name = "MirrorError";
  constructor(
    message: string,
    readonly retryable: boolean,
  ) {
    super(message);
  }
}

/** A media path that is not strictly inside the data dir (absolute, "../", empty...). */
export class UnsafeMediaPathError extends Error {
  override readonly name = "UnsafeMediaPathError";
  constructor(readonly relativePath: string) {
    super(`Media path ${JSON.stringify(relativePath)} is not inside the data directory.`);
  }
}

const DEFAULT_THUMBNAIL_WIDTH = 480;
const THUMBNAIL_QUALITY = 75;
const MEDIA_FOLDER = "media";
const GENERATION_ID_PATTERN = /^[A-Za-z0-9-]+$/;
const FRAME_TIME_SECONDS = "0.5";
const FRAME_EXTRACTION_TIMEOUT_MS = 60_000;
/** A single PNG frame; far above any real video's, it only bounds memory. */
const MAX_FRAME_BYTES = 256 * 1024 * 1024;
const STDERR_TAIL_CHARS = 2000;

interface Dimensions {
  width: number;
  height: number;
}

/** A downloaded body sitting in its temp file, not yet in place. */
interface Download {
  tempPath: string;
  head: Uint8Array;
  contentType: string | null;
  /** Origin + path, safe to print (no query string). */
  where: string;
}

/** The picture a thumbnail and dimensions are made from: the image itself, or a video's cover. */
interface Picture {
  path: string;
  /** Where it ends up, relative to dataDir; null for an image output (the picture is the file itself). */
  coverPath: string | null;
}

export class MediaMirror {
  private readonly dataDir: string;
  private readonly mediaRoot: string;
  private readonly fetchTimeoutMs: number;
  private readonly maxBytes: number;
  private readonly thumbnailWidth: number;

  constructor(options: MediaMirrorOptions) {
    if (!isAbsolute(options.dataDir)) throw new Error(`MediaMirror needs an absolute dataDir, got ${options.dataDir}.`);
    this.dataDir = resolve(options.dataDir);
    this.mediaRoot = join(this.dataDir, MEDIA_FOLDER);
    this.fetchTimeoutMs = options.fetchTimeoutMs;
    this.maxBytes = options.maxBytes;
    this.thumbnailWidth = options.thumbnailWidth ?? DEFAULT_THUMBNAIL_WIDTH;
  }

  /**
   * Downloads the file (and the cover for a video) and makes a WebP thumbnail. Returns paths relative to dataDir with
   * forward slashes. Idempotent: calling again for the same output overwrites atomically. Failures are MirrorErrors,
   * except an abort through `signal`, which rejects with the signal's reason.
   */
  async mirrorOutput(output: OutputToMirror, signal?: AbortSignal): Promise<MirroredOutput> {
    signal?.throwIfAborted();
    validateOutput(output);
    const folder = join(this.mediaRoot, output.generationId);
    await mkdir(folder, { recursive: true });
    const temps = new TempFiles(folder);
    try {
      return output.kind === "image" ? await this.mirrorImage(output, temps, signal) : await this.mirrorVideo(output, temps, signal);
    } finally {
      await temps.removeAll();
    }
  }

  /** Deletes files given relative to dataDir, ignoring missing ones, and then their generation folders if empty. Throws UnsafeMediaPathError, before deleting anything, if any path escapes dataDir. */
  async removeFiles(relativePaths: string[]): Promise<void> {
    const absolutePaths = relativePaths.map((path) => this.resolve(path));
    await Promise.all(absolutePaths.map(unlinkIfPresent));
    const generationFolders = new Set(absolutePaths.map((path) => dirname(path)).filter((folder) => dirname(folder) === this.mediaRoot));
    await Promise.all([...generationFolders].map(removeFolderIfEmpty));
  }

  /** Absolute path for a path relative to dataDir; throws UnsafeMediaPathError if it is not strictly inside dataDir. */
  resolve(relativePath: string): string {
    if (relativePath === "" || relativePath.includes("\0") || isAbsolute(relativePath)) throw new UnsafeMediaPathError(relativePath);
    const absolutePath = resolve(this.dataDir, relativePath);
    const inside = relative(this.dataDir, absolutePath);
    if (inside === "" || inside === ".." || inside.startsWith(`..${sep}`) || isAbsolute(inside)) throw new UnsafeMediaPathError(relativePath);
    return absolutePath;
  }

  private async mirrorImage(output: OutputToMirror, temps: TempFiles, signal: AbortSignal | undefined): Promise<MirroredOutput> {
    const image = await this.download(output.providerUrl, temps, signal);
    const extension = imageExtensionOf(image);
    if (!extension) throw new MirrorError(`${image.where} did not return an image.`, false);
    const picture = { path: image.tempPath, coverPath: null };
    return this.finish(output, `${output.index}.${extension}`, image.tempPath, picture, temps, signal);
  }

  private async mirrorVideo(output: OutputToMirror, temps: TempFiles, signal: AbortSignal | undefined): Promise<MirroredOutput> {
    // The cover comes first: a retryable failure there should not cost a whole video download.
    const providerCover = output.providerCoverUrl === null ? null : await this.downloadCover(output.providerCoverUrl, temps, signal);
    const video = await this.download(output.providerUrl, temps, signal);
    const extension = videoExtensionOf(video);
    if (!extension) throw new MirrorError(`${video.where} did not return a video.`, false);

    let picture: Picture | null = null;
    if (providerCover) {
      picture = { path: providerCover.tempPath, coverPath: this.relativeMediaPath(output, `${output.index}-cover.${providerCover.extension}`) };
    } else {
      const frame = await extractFrame(video.tempPath, signal);
      if (frame) {
        const framePath = temps.create();
        await writeFile(framePath, frame);
        picture = { path: framePath, coverPath: this.relativeMediaPath(output, `${output.index}-cover.png`) };
      }
    }
    return this.finish(output, `${output.index}.${extension}`, video.tempPath, picture, temps, signal);
  }

  /** A cover that is permanently unavailable (404, not an image) is dropped, so the video still gets a cover from its own frames. */
  private async downloadCover(url: string, temps: TempFiles, signal: AbortSignal | undefined): Promise<{ tempPath: string; extension: string } | null> {
    try {
      const cover = await this.download(url, temps, signal);
      const extension = imageExtensionOf(cover);
      return extension ? { tempPath: cover.tempPath, extension } : null;
    } catch (error) {
      if (error instanceof MirrorError && !error.retryable) return null;
      throw error;
    }
  }

  /** Makes the thumbnail, then moves everything into place: the cover and thumbnail before the file, so a file that exists has them. */
  private async finish(
    output: OutputToMirror,
    fileName: string,
    fileTempPath: string,
    picture: Picture | null,
    temps: TempFiles,
    signal: AbortSignal | undefined,
  ): Promise<MirroredOutput> {
    const dimensions = picture ? await readDimensions(picture.path) : null;
    const thumbnailTempPath = temps.create();
    const hasThumbnail = picture ? await writeThumbnail(picture.path, thumbnailTempPath, this.thumbnailWidth) : false;
    signal?.throwIfAborted();

    const thumbnailPath = hasThumbnail ? this.relativeMediaPath(output, `${output.index}-thumb.webp`) : null;
    if (picture?.coverPath) await rename(picture.path, this.resolve(picture.coverPath));
    if (thumbnailPath) await rename(thumbnailTempPath, this.resolve(thumbnailPath));
    else await unlinkIfPresent(this.resolve(this.relativeMediaPath(output, `${output.index}-thumb.webp`)));
    const filePath = this.relativeMediaPath(output, fileName);
    await rename(fileTempPath, this.resolve(filePath));

    return {
      index: output.index,
      filePath,
      coverPath: picture?.coverPath ?? null,
      thumbnailPath,
      width: dimensions?.width ?? null,
      height: dimensions?.height ?? null,
    };
  }

  private relativeMediaPath(output: OutputToMirror, fileName: string): string {
    return `${MEDIA_FOLDER}/${output.generationId}/${fileName}`;
  }

  /** Streams a URL's body into a new temp file, enforcing maxBytes and fetchTimeoutMs. */
  private async download(url: string, temps: TempFiles, signal: AbortSignal | undefined): Promise<Download> {
    const target = parseDownloadUrl(url);
    const where = `${target.origin}${target.pathname}`;
    const timeout = AbortSignal.timeout(this.fetchTimeoutMs);
    const fetchSignal = signal ? AbortSignal.any([signal, timeout]) : timeout;
    const tempPath = temps.create();
    try {
      const response = await fetch(target, { signal: fetchSignal, redirect: "follow" });
      if (!response.ok) {
        await discardBody(response);
        throw new MirrorError(`${where} answered HTTP ${response.status}.`, isRetryableStatus(response.status));
      }
      const declaredBytes = Number(response.headers.get("content-length") ?? NaN);
      if (declaredBytes > this.maxBytes) {
        await discardBody(response);
        throw this.tooLarge(where);
      }
      if (!response.body) throw new MirrorError(`${where} answered without a body.`, false);
      const head = await this.streamToFile(response.body, tempPath, where);
      if (head.length === 0) throw new MirrorError(`${where} answered with an empty body.`, false);
      return { tempPath, head, contentType: mediaTypeOf(response.headers.get("content-type")), where };
    } catch (error) {
      throw downloadFailure(error, where, signal, timeout, this.fetchTimeoutMs);
    }
  }

  /** Returns the first bytes, for sniffing. */
  private async streamToFile(body: ReadableStream<Uint8Array>, tempPath: string, where: string): Promise<Uint8Array> {
    const maxBytes = this.maxBytes;
    const tooLarge = (): MirrorError => this.tooLarge(where);
    let head = new Uint8Array(0);
    let received = 0;
    const file = createWriteStream(tempPath, { flags: "wx" });
    try {
      await pipeline(
        Readable.fromWeb(body as NodeReadableStream<Uint8Array>),
        async function* (chunks: AsyncIterable<Uint8Array>) {
          for await (const chunk of chunks) {
            received += chunk.length;
            if (received > maxBytes) throw tooLarge();
            if (head.length < IMAGE_SNIFF_BYTES) head = Buffer.concat([head, chunk.subarray(0, IMAGE_SNIFF_BYTES - head.length)]);
            yield chunk;
          }
        },
        file,
      );
    } catch (error) {
      // Deleting the temp file is only safe once the stream has let go of it (it may still be opening).
      if (!file.closed) await once(file, "close").catch(() => undefined);
      throw error;
    }
    return head;
  }

  private tooLarge(where: string): MirrorError {
    return new MirrorError(`${where} is larger than the ${this.maxBytes}-byte limit.`, false);
  }
}

/** Temp files beside their final place (same folder, so renames are atomic); whatever is not renamed away is removed. */
class TempFiles {
  private readonly paths: string[] = [];

  constructor(private readonly folder: string) {}

  create(): string {
    const path = join(this.folder, `.${randomUUID()}.tmp`);
    this.paths.push(path);
    return path;
  }

  async removeAll(): Promise<void> {
    await Promise.all(this.paths.map(unlinkIfPresent));
  }
}

function validateOutput(output: OutputToMirror): void {
  if (!GENERATION_ID_PATTERN.test(output.generationId)) {
    throw new MirrorError(`Generation id ${JSON.stringify(output.generationId)} may only contain letters, digits and dashes.`, false);
  }
  if (!Number.isSafeInteger(output.index) || output.index < 0) {
    throw new MirrorError(`Output index ${output.index} is not a non-negative integer.`, false);
  }
}

function parseDownloadUrl(url: string): URL {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new MirrorError("A provider URL is not a valid URL.", false);
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
    throw new MirrorError(`A provider URL uses ${parsed.protocol}, not http or https.`, false);
  }
  return parsed;
}

function isRetryableStatus(status: number): boolean {
  return status >= 500 || status === 429;
}

/** What a failed download becomes: the caller's abort stays an abort; everything else is a MirrorError. */
function downloadFailure(error: unknown, where: string, signal: AbortSignal | undefined, timeout: AbortSignal, timeoutMs: number): unknown {
  if (signal?.aborted) return signal.reason;
  if (error instanceof MirrorError) return error;
  if (timeout.aborted) return new MirrorError(`Downloading ${where} took longer than ${timeoutMs} ms.`, true);
  return new MirrorError(`Downloading ${where} failed: ${networkErrorReason(error)}.`, true);
}

/** The low-level reason (e.g. ECONNREFUSED) rather than fetch's generic "fetch failed"; never the URL. */
function networkErrorReason(error: unknown): string {
  const cause: unknown = error instanceof Error ? error.cause : undefined;
  if (cause && typeof cause === "object" && "code" in cause && typeof cause.code === "string") return cause.code;
  if (error instanceof Error && error.name !== "Error") return error.name;
  return "network error";
}

async function discardBody(response: Response): Promise<void> {
  await response.body?.cancel().catch(() => undefined);
}

/** "Image/PNG; charset=x" -> "image/png". */
function mediaTypeOf(contentType: string | null): string | null {
  const mediaType = contentType?.split(";")[0]?.trim().toLowerCase();
  return mediaType || null;
}

/** Images are recognised by their bytes alone: a content type is only a claim. */
function imageExtensionOf(download: Download): string | null {
  const type = sniffImageType(download.head);
  return type ? imageExtensions[type] : null;
}

function videoExtensionOf(download: Download): "mp4" | "webm" | null {
  const { head, contentType } = download;
  const isoMedia = head[4] === 0x66 && head[5] === 0x74 && head[6] === 0x79 && head[7] === 0x70; // "ftyp"
  const matroska = head[0] === 0x1a && head[1] === 0x45 && head[2] === 0xdf && head[3] === 0xa3; // EBML
  if (isoMedia) return "mp4";
  if (matroska || contentType === "video/webm") return "webm";
  if (contentType?.startsWith("video/")) return "mp4";
  return null;
}

/** Width and height as displayed (EXIF orientation applied), or null when sharp cannot read it. */
async function readDimensions(path: string): Promise<Dimensions | null> {
  try {
    const { autoOrient } = await sharp(path).metadata();
    return { width: autoOrient.width, height: autoOrient.height };
  } catch {
    return null;
  }
}

/** Writes a WebP thumbnail of the (first frame of the) picture; false when sharp cannot. */
async function writeThumbnail(sourcePath: string, thumbnailPath: string, width: number): Promise<boolean> {
  try {
    await sharp(sourcePath, { animated: false })
      .autoOrient()
      .resize({ width, withoutEnlargement: true })
      .webp({ quality: THUMBNAIL_QUALITY })
      .toFile(thumbnailPath);
    return true;
  } catch {
    return false;
  }
}

/** A PNG frame from ~0.5 s into the video, or its first frame if it is shorter; null when ffmpeg gets none. */
async function extractFrame(videoPath: string, signal: AbortSignal | undefined): Promise<Buffer | null> {
  const attempts = [["-ss", FRAME_TIME_SECONDS, "-i", videoPath], ["-i", videoPath]];
  for (const input of attempts) {
    signal?.throwIfAborted();
    const frame = await runFfmpeg([...input, "-frames:v", "1", "-f", "image2pipe", "-vcodec", "png", "-"], signal).catch(() => null);
    signal?.throwIfAborted();
    if (frame && frame.length > 0) return frame;
  }
  return null;
}

/** Runs ffmpeg and resolves with its stdout; rejects on failure, timeout or abort (ffmpeg is killed then). */
function runFfmpeg(args: string[], signal: AbortSignal | undefined): Promise<Buffer> {
  const timeout = AbortSignal.timeout(FRAME_EXTRACTION_TIMEOUT_MS);
  const stopSignal = signal ? AbortSignal.any([signal, timeout]) : timeout;
  const child = spawn(ffmpegInstaller.path, ["-hide_banner", "-loglevel", "error", "-nostdin", ...args], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  const kill = (): void => {
    child.kill("SIGKILL");
  };
  stopSignal.addEventListener("abort", kill, { once: true });

  const chunks: Buffer[] = [];
  let size = 0;
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => {
    size += chunk.length;
    if (size > MAX_FRAME_BYTES) kill();
    else chunks.push(chunk);
  });
  child.stderr.setEncoding("utf8");
  child.stderr.on("data", (chunk: string) => {
    stderr = (stderr + chunk).slice(-STDERR_TAIL_CHARS);
  });

  return new Promise<Buffer>((resolvePromise, reject) => {
    child.once("error", reject);
    child.once("close", (code, killedBy) => {
      stopSignal.removeEventListener("abort", kill);
      if (code === 0) resolvePromise(Buffer.concat(chunks));
      else reject(new Error(`ffmpeg failed (${code === null ? `killed by ${killedBy}` : `exit code ${code}`}): ${stderr.trim() || "no output"}`));
    });
  });
}

async function unlinkIfPresent(path: string): Promise<void> {
  try {
    await unlink(path);
  } catch (error) {
    if (errorCode(error) !== "ENOENT") throw error;
  }
}

async function removeFolderIfEmpty(folder: string): Promise<void> {
  try {
    await rmdir(folder);
  } catch (error) {
    const code = errorCode(error);
    if (code !== "ENOENT" && code !== "ENOTEMPTY" && code !== "EEXIST") throw error;
  }
}

function errorCode(error: unknown): string | undefined {
  return error && typeof error === "object" && "code" in error && typeof error.code === "string" ? error.code : undefined;
}
