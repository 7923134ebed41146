import type { StudioConfig } from "../../api/studio";
import { formatBytes, formatImageTypes } from "./format";

export type ImageLimits = Pick<StudioConfig["limits"], "acceptedImageTypes" | "maxReferenceImageBytes" | "maxReferenceImages">;

const extensionMime: Record<string, string> = {
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  webp: "image/webp",
  gif: "image/gif",
};

/** The file's MIME type, guessed from its extension when the browser gave none. */
export function mimeOf(file: File): string {
  if (file.type) return file.type;
  const ext = file.name.split(".").pop()?.toLowerCase() ?? "";
  return extensionMime[ext] ?? "";
}

function displayName(file: File): string {
  return file.name ? `“${file.name}”` : "The pasted image";
}

/** A sentence saying why this file can't be used, or null when it can. */
export function checkImageFile(file: File, limits: ImageLimits): string | null {
  const mime = mimeOf(file);
  if (!limits.acceptedImageTypes.includes(mime)) {
    return `${displayName(file)} isn't a supported image. Use ${formatImageTypes(limits.acceptedImageTypes)}.`;
  }
  if (file.size > limits.maxReferenceImageBytes) {
    return `${displayName(file)} is ${formatBytes(file.size)} — the limit is ${formatBytes(limits.maxReferenceImageBytes)} per image.`;
  }
  if (file.size === 0) return `${displayName(file)} is empty.`;
  return null;
}

export interface IntakeResult {
  accepted: File[];
  problems: string[];
}

/** Splits incoming files into usable ones and sentences about the rest, honouring the free slots. */
export function takeImageFiles(files: readonly File[], limits: ImageLimits, freeSlots: number): IntakeResult {
  const accepted: File[] = [];
  const problems: string[] = [];
  const overflow: File[] = [];
  for (const file of files) {
    const problem = checkImageFile(file, limits);
    if (problem) problems.push(problem);
    else if (accepted.length < freeSlots) accepted.push(file);
    else overflow.push(file);
  }
  if (overflow.length > 0) {
    const names = overflow.map((file) => displayName(file)).join(", ");
    problems.push(
      `Up to ${limits.maxReferenceImages} reference images per request — ${names} ${overflow.length === 1 ? "wasn't" : "weren't"} added.`,
    );
  }
  return { accepted, problems };
}

export function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value.trim());
    return url.protocol === "http:" || url.protocol === "https:";
  } catch {
    return false;
  }
}

function extensionFor(mime: string): string {
  const found = Object.entries(extensionMime).find(([, value]) => value === mime);
  return found?.[0] ?? "png";
}

/** Downloads a same-origin image (a reference or an output) and wraps it as a File for the form. */
export async function fetchAsFile(url: string, name: string, fallbackMime = "image/png"): Promise<File> {
  const response = await fetch(url, { credentials: "same-origin" });
  if (!response.ok) throw new Error(`Couldn't load ${name} (${response.status}).`);
  const blob = await response.blob();
  const mime = blob.type || fallbackMime;
  const fileName = /\.[a-z0-9]{2,5}$/i.test(name) ? name : `${name}.${extensionFor(mime)}`;
  return new File([blob], fileName, { type: mime });
}
