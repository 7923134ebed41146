import { useMutation, useQueryClient } from "@tanstack/react-query";
import { generationSchema, type Generation } from "../../../../api/studio";
import { apiJson } from "../../../lib/api-client";
import { upsertGeneration } from "../../generations/cache";
import { appendReferences, type ReferenceInput } from "./reference-parts";

/** One image request; the studio sends N of these side by side for N images. */
export interface ImageRequest {
  prompt: string;
  model: string;
  aspectRatio?: string;
  /** In order; see appendReferences. */
  references: ReferenceInput[];
  /** Groups the requests of one send (for the results strip). */
  batchId: string;
  requestedAt: number;
}

export function buildImageForm(request: ImageRequest): FormData {
  const form = new FormData();
  form.append("prompt", request.prompt);
  form.append("model", request.model);
  if (request.aspectRatio) form.append("aspect_ratio", request.aspectRatio);
  appendReferences(form, request.references, "reference.png");
  return form;
}

/** POST /api/studio/images — waits for the image; 201 with the finished Generation. */
export function createImage(request: ImageRequest): Promise<Generation> {
  return apiJson(generationSchema, "/api/studio/images", { method: "POST", form: buildImageForm(request) });
}

export const createImageMutationKey = ["create-image"] as const;

export function useCreateImage() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: createImageMutationKey,
    mutationFn: createImage,
    // Tiles of this session stay until cleared.
    gcTime: Infinity,
    onSuccess: (generation) => upsertGeneration(queryClient, generation),
  });
}
