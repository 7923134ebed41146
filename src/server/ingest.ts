import { randomUUID } from "node:crypto";
import { createWriteStream } from "node:fs";
import { mkdir, rename, rm } from "node:fs/promises";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as WebReadableStream } from "node:stream/web";
import busboy from "busboy";
import { HttpError } from "../api/errors";
import { IMAGE_SNIFF_BYTES, imageExtensions, sniffImageType } from "../api/image-types";
import type { NewReference } from "./ledger/ledger";

export interface IngestLimits {
  maxReferenceImages: number;
  maxReferenceImageBytes: number;
}

/** A generation request as received: its text fields, and its reference images in the order they came. */
export interface IngestedRequest {
  format: "json" | "multipart";
  /** Every field but the images, as sent (multipart values are strings). */
  fields: Record<string, unknown>;
  /** Uploaded files are on disk under <dataDir>/references; URL references are kept as URLs. */
  references: NewReference[];
}

const MAX_JSON_BYTES = 1024 * 1024;
const MAX_FIELD_BYTES = 64 * 1024;
const MAX_FIELDS = 50;

/** Field names that carry reference images: the provider's `image`, and the studio's `image_url`. */
const IMAGE_FIELDS = new Set(["image", "image_url"]);

/**
 * Reads a JSON or multipart/form-data generation request. Uploaded files stream straight to disk
 * (never whole in memory), are checked by their magic bytes, and count against the size and
 * number limits as they arrive. On any failure every file written so far is removed.
 */
export async function ingestGenerationRequest(request: Request, dataDir: string, limits: IngestLimits): Promise<IngestedRequest> {
  const contentType = request.headers.get("content-type") ?? "";
  if (contentType.startsWith("application/json")) return ingestJson(request, limits);
  if (contentType.startsWith("multipart/form-data")) return ingestMultipart(request, contentType, dataDir, limits);
  throw new HttpError(415, "unsupported_media_type", "Send the request as application/json or multipart/form-data.");
}

/** Deletes the files of uploaded references (after a rejected request). */
export async function discardReferences(dataDir: string, references: NewReference[]): Promise<void> {
  await Promise.all(references.map((reference) => (reference.filePath ? rm(path.join(dataDir, reference.filePath), { force: true }) : undefined)));
}

async function ingestJson(request: Request, limits: IngestLimits): Promise<IngestedRequest> {
  const text = await readLimitedText(request, MAX_JSON_BYTES);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new HttpError(400, "invalid_json", "The request body is not valid JSON.");
  }
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    throw new HttpError(400, "invalid_body", "The request body must be a JSON object.");
  }
  const fields = { ...(body as Record<string, unknown>) };
  const image = fields.image;
  const urls = typeof image === "string" ? [image] : Array.isArray(image) ? image.filter((value): value is string => typeof value === "string") : [];
  if (urls.length > limits.maxReferenceImages) throw tooManyImages(limits);
  return { format: "json", fields, references: urls.map(urlReference) };
}

function urlReference(url: string): NewReference {
  let name = "image";
  try {
    name = decodeURIComponent(new URL(url).pathname.split("/").pop() || "image");
  } catch {
    // Validation reports a malformed URL with a proper message later.
  }
  return { id: randomUUID(), mime: "", name, bytes: 0, sourceUrl: url, filePath: null };
}

async function ingestMultipart(request: Request, contentType: string, dataDir: string, limits: IngestLimits): Promise<IngestedRequest> {
  if (!request.body) throw new HttpError(400, "invalid_body", "The multipart/form-data body is empty.");
  const referencesDir = path.join(dataDir, "references");
  await mkdir(referencesDir, { recursive: true });

  const fields: Record<string, unknown> = {};
  const references: NewReference[] = [];
  const writes: Promise<void>[] = [];
  let failure: HttpError | null = null;
  const fail = (error: HttpError) => {
    failure ??= error;
  };

  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: { "content-type": contentType },
      limits: { fileSize: limits.maxReferenceImageBytes, fieldSize: MAX_FIELD_BYTES, fields: MAX_FIELDS, files: limits.maxReferenceImages + 1 },
    });
  } catch {
    throw new HttpError(400, "invalid_body", "The multipart/form-data body could not be read.");
  }

  parser.on("field", (name, value, info) => {
    if (info.valueTruncated) return fail(new HttpError(400, "invalid_field", `The field "${name}" is too long.`));
    if (IMAGE_FIELDS.has(name)) {
      if (value.trim()) references.push(urlReference(value.trim()));
      if (references.length > limits.maxReferenceImages) fail(tooManyImages(limits));
      return;
    }
    fields[name] = value;
  });

  parser.on("file", (name, stream, info) => {
    if (name !== "image") {
      stream.resume();
      return fail(new HttpError(400, "invalid_field", `The field "${name}" must be text, not a file. Send reference images as "image".`));
    }
    const reference: NewReference = { id: randomUUID(), mime: "", name: info.filename || "image", bytes: 0, sourceUrl: null, filePath: null };
    references.push(reference);
    if (references.length > limits.maxReferenceImages) {
      stream.resume();
      return fail(new HttpError(400, "too_many_images", `At most ${limits.maxReferenceImages} reference images are accepted.`));
    }
    writes.push(saveUpload(stream, reference, referencesDir, limits).catch((error: unknown) => fail(asHttpError(error))));
  });

  parser.on("filesLimit", () => fail(new HttpError(400, "too_many_images", `At most ${limits.maxReferenceImages} reference images are accepted.`)));
  parser.on("fieldsLimit", () => fail(new HttpError(400, "invalid_body", "The request has too many fields.")));

  try {
    await pipeline(Readable.fromWeb(request.body as WebReadableStream), parser);
  } catch {
    fail(new HttpError(400, "invalid_body", "The multipart/form-data body could not be read to the end."));
  }
  await Promise.all(writes);

  if (failure) {
    await discardReferences(dataDir, references);
    throw failure;
  }
  return { format: "multipart", fields, references };
}

async function saveUpload(stream: Readable & { truncated?: boolean }, reference: NewReference, directory: string, limits: IngestLimits): Promise<void> {
  const temporary = path.join(directory, `${reference.id}.part`);
  let head = Buffer.alloc(0);
  let bytes = 0;
  stream.on("data", (chunk: Buffer) => {
    bytes += chunk.length;
    if (head.length < IMAGE_SNIFF_BYTES) head = Buffer.concat([head, chunk.subarray(0, IMAGE_SNIFF_BYTES - head.length)]);
  });
  try {
    await pipeline(stream, createWriteStream(temporary));
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
  const label = `"${reference.name}"`;
  if (stream.truncated) {
    await rm(temporary, { force: true });
    throw new HttpError(400, "image_too_large", `Reference image ${label} is larger than ${formatMegabytes(limits.maxReferenceImageBytes)}.`);
  }
  const mime = sniffImageType(head);
  if (!mime) {
    await rm(temporary, { force: true });
    throw new HttpError(400, "invalid_image", `Reference image ${label} is not a PNG, JPEG, WebP or GIF image.`);
  }
  const fileName = `${reference.id}.${imageExtensions[mime]}`;
  await rename(temporary, path.join(directory, fileName));
  reference.mime = mime;
  reference.bytes = bytes;
  reference.filePath = `references/${fileName}`;
}

async function readLimitedText(request: Request, maxBytes: number): Promise<string> {
  if (!request.body) return "";
  const chunks: Uint8Array[] = [];
  let total = 0;
  for await (const chunk of request.body) {
    total += chunk.byteLength;
    if (total > maxBytes) throw new HttpError(413, "payload_too_large", `A JSON request body may be at most ${formatMegabytes(maxBytes)}.`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/** URL references count against the limit as uploaded files do. */
function tooManyImages(limits: IngestLimits): HttpError {
  return new HttpError(400, "too_many_images", `At most ${limits.maxReferenceImages} reference images are accepted.`);
}

function asHttpError(error: unknown): HttpError {
  return error instanceof HttpError ? error : new HttpError(400, "invalid_body", "An uploaded file could not be received.");
}

function formatMegabytes(bytes: number): string {
  return `${Math.round((bytes / 1024 / 1024) * 10) / 10} MB`;
}
