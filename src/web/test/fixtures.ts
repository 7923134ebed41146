import type { Generation, StudioConfig } from "../../api/studio";

export const testConfig: StudioConfig = {
  imageModels: ["sandbox-image-1", "sandbox-image-hd"],
  videoModels: ["sandbox-video-1"],
  aspectRatios: ["1:1", "16:9", "9:16", "4:3", "3:4", "3:2", "2:3", "21:9"],
  videoSizes: ["1280x720", "720x1280", "1024x1024"],
  limits: {
    promptMaxLength: 3000,
    maxReferenceImages: 4,
    maxReferenceImageBytes: 1024 * 1024,
    acceptedImageTypes: ["image/png", "image/jpeg", "image/webp", "image/gif"],
  },
  sandbox: true,
};

let sequence = 0;

export function makeGeneration(overrides: Partial<Generation> = {}): Generation {
  sequence += 1;
  const id = overrides.id ?? `gen-${sequence}`;
  const kind = overrides.kind ?? "image";
  const status = overrides.status ?? "success";
  const createdAt = overrides.createdAt ?? 1_700_000_000_000 + sequence * 1000;
  return {
    id,
    kind,
    status,
    prompt: `Prompt for ${id}`,
    model: kind === "image" ? "sandbox-image-1" : "sandbox-video-1",
    params: kind === "image" ? { aspect_ratio: "1:1" } : { size: "1280x720" },
    references: [],
    outputs:
      status === "success"
        ? [
            {
              index: 0,
              url: `/media/${id}.${kind === "image" ? "png" : "mp4"}`,
              thumbnailUrl: `/media/${id}.thumb.webp`,
              coverUrl: kind === "video" ? `/media/${id}.cover.png` : null,
              mime: kind === "image" ? "image/png" : "video/mp4",
              width: 1024,
              height: 1024,
            },
          ]
        : [],
    providerTaskId: kind === "video" ? String(1000 + sequence) : null,
    error: null,
    favourite: false,
    createdAt,
    updatedAt: createdAt,
    completedAt: status === "success" || status === "failed" ? createdAt + 4000 : null,
    taskCostTime: null,
    statusHistory: [{ status, at: createdAt }],
    ...overrides,
  };
}

export function pngFile(name = "reference.png", bytes = 128): File {
  return new File([new Uint8Array(bytes)], name, { type: "image/png" });
}
