import type { z } from "zod";
import type { AcceptedImageType } from "../api/image-types";
import { sniffImageType } from "../api/image-types";
import { describeRequestProblem } from "../api/request-errors";
import { HttpError } from "../api/errors";

export interface ReferenceImage {
  bytes: Uint8Array;
  mime: AcceptedImageType;
}

type ReferenceSource = { kind: "file"; file: File } | { kind: "url"; url: string };

export interface ReferenceLimits {
  maxReferenceImages: number;
  maxReferenceImageBytes: number;
  imageFetchTimeoutMs: number;
}

/**
 * Reads a generation request sent as JSON or multipart/form-data, validates its fields with the
 * contract's schema and loads every reference image (uploaded parts and URLs) as checked bytes.
 */
export async function readGenerationRequest<Schema extends z.ZodType<Record<string, unknown>>>(
  request: Request,
  schema: Schema,
  limits: ReferenceLimits,
): Promise<{ fields: z.infer<Schema>; references: ReferenceImage[] }> {
  const { fields, sources } = await readBody(request);
  const parsed = schema.safeParse(fields);
  if (!parsed.success) {
    const problem = describeRequestProblem(parsed.error, fields);
    throw new HttpError(400, problem.code, problem.message);
  }
  if (sources.length > limits.maxReferenceImages) {
    throw new HttpError(
      400,
      "too_many_images",
      `At most ${limits.maxReferenceImages} reference images are accepted; this request has ${sources.length}.`,
    );
  }
  const references: ReferenceImage[] = [];
  for (const source of sources) {
    references.push(source.kind === "file" ? await readUploadedImage(source.file, limits) : await fetchImage(source.url, limits));
  }
  return { fields: parsed.data, references };
}

async function readBody(request: Request): Promise<{ fields: Record<string, unknown>; sources: ReferenceSource[] }> {
  const contentType = request.headers.get("content-type") ?? "";
  if (contentType.startsWith("application/json")) return readJsonBody(request);
  if (contentType.startsWith("multipart/form-data")) return readMultipartBody(request);
  throw new HttpError(415, "unsupported_media_type", "Send the request as application/json or multipart/form-data.");
}

async function readJsonBody(request: Request) {
  let body: unknown;
  try {
    body = await request.json();
  } catch {
    throw new HttpError(400, "invalid_json", "The request body is not valid JSON.");
  }
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    throw new HttpError(400, "invalid_body", "The request body must be a JSON object.");
  }
  const fields = body as Record<string, unknown>;
  const image = fields.image;
  const urls = typeof image === "string" ? [image] : Array.isArray(image) ? image.filter((url) => typeof url === "string") : [];
  return { fields, sources: urls.map((url): ReferenceSource => ({ kind: "url", url })) };
}

async function readMultipartBody(request: Request) {
  let form: FormData;
  try {
    form = await request.formData();
  } catch {
    throw new HttpError(400, "invalid_body", "The multipart/form-data body could not be read.");
  }
  const fields: Record<string, unknown> = {};
  const sources: ReferenceSource[] = [];
  const imageUrls: string[] = [];
  for (const [name, value] of form.entries()) {
    if (name === "image") {
      if (typeof value === "string") {
        imageUrls.push(value);
        sources.push({ kind: "url", url: value });
      } else {
        sources.push({ kind: "file", file: value });
      }
      continue;
    }
    if (typeof value !== "string") {
      throw new HttpError(400, "invalid_field", `The field "${name}" must be text, not a file.`);
    }
    fields[name] = value;
  }
  if (imageUrls.length > 0) fields.image = imageUrls;
  return { fields, sources };
}

async function readUploadedImage(file: File, limits: ReferenceLimits): Promise<ReferenceImage> {
  const label = file.name ? `"${file.name}"` : "an uploaded file";
  if (file.size > limits.maxReferenceImageBytes) {
    throw new HttpError(400, "image_too_large", `Reference image ${label} is larger than ${formatMegabytes(limits.maxReferenceImageBytes)}.`);
  }
  const bytes = new Uint8Array(await file.arrayBuffer());
  const mime = sniffImageType(bytes);
  if (!mime) throw new HttpError(400, "invalid_image", `Reference image ${label} is not a PNG, JPEG, WebP or GIF image.`);
  return { bytes, mime };
}

async function fetchImage(url: string, limits: ReferenceLimits): Promise<ReferenceImage> {
  let response: Response;
  try {
    response = await fetch(url, { signal: AbortSignal.timeout(limits.imageFetchTimeoutMs), redirect: "follow" });
  } catch (error) {
    const reason = error instanceof Error && error.name === "TimeoutError" ? "it took too long to answer" : "it could not be reached";
    throw new HttpError(400, "image_fetch_failed", `The reference image at ${url} could not be fetched: ${reason}.`);
  }
  if (!response.ok) {
    await response.body?.cancel();
    throw new HttpError(400, "image_fetch_failed", `The reference image at ${url} could not be fetched: it answered HTTP ${response.status}.`);
  }
  const bytes = await readLimited(response, limits.maxReferenceImageBytes, url);
  const mime = sniffImageType(bytes);
  if (!mime) throw new HttpError(400, "invalid_image", `The file at ${url} is not a PNG, JPEG, WebP or GIF image.`);
  return { bytes, mime };
}

async function readLimited(response: Response, maxBytes: number, url: string): Promise<Uint8Array> {
  const tooLarge = () => new HttpError(400, "image_too_large", `The reference image at ${url} is larger than ${formatMegabytes(maxBytes)}.`);
  const declared = Number(response.headers.get("content-length"));
  if (Number.isFinite(declared) && declared > maxBytes) {
    await response.body?.cancel();
    throw tooLarge();
  }
  if (!response.body) return new Uint8Array();
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for await (const chunk of response.body) {
      total += chunk.byteLength;
      if (total > maxBytes) throw tooLarge();
      chunks.push(chunk);
    }
  } catch (error) {
    if (error instanceof HttpError) throw error;
    throw new HttpError(400, "image_fetch_failed", `The reference image at ${url} could not be fetched: the download broke off.`);
  }
  return Buffer.concat(chunks);
}

function formatMegabytes(bytes: number): string {
  return `${Math.round((bytes / 1024 / 1024) * 10) / 10} MB`;
}
