import { useMutation, useQueryClient } from "@tanstack/react-query";
import { generationSchema, type Generation } from "../../../../api/studio";
import { apiJson } from "../../../lib/api-client";
import { useStudioStore } from "../../../stores/studio-store";
import { upsertGeneration } from "../../generations/cache";
import { appendReferences, type ReferenceInput } from "./reference-parts";

export interface VideoRequest {
  prompt: string;
  model: string;
  size?: string;
  /** First frame, then last frame. */
  frames: ReferenceInput[];
}

export function buildVideoForm(request: VideoRequest): FormData {
  const form = new FormData();
  form.append("prompt", request.prompt);
  form.append("model", request.model);
  if (request.size) form.append("size", request.size);
  appendReferences(form, request.frames, "frame.png");
  return form;
}

/** POST /api/studio/videos — 202 with the pending Generation; its card polls from there. */
export function createVideo(request: VideoRequest): Promise<Generation> {
  return apiJson(generationSchema, "/api/studio/videos", { method: "POST", form: buildVideoForm(request) });
}

export const createVideoMutationKey = ["create-video"] as const;

export function useCreateVideo() {
  const queryClient = useQueryClient();
  const trackVideos = useStudioStore((state) => state.trackVideos);
  return useMutation({
    mutationKey: createVideoMutationKey,
    mutationFn: createVideo,
    onSuccess: (generation) => {
      upsertGeneration(queryClient, generation);
      trackVideos([generation.id]);
    },
  });
}
