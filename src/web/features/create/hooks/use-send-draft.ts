import { useCallback } from "react";
import type { StudioConfig } from "../../../../api/studio";
import { createLocalId } from "../../../lib/ids";
import { useStudioStore, type DraftImage } from "../../../stores/studio-store";
import { useCreateImage } from "../api/create-image";
import { useCreateVideo } from "../api/create-video";
import type { ReferenceInput } from "../api/reference-parts";

export function promptTooLongMessage(length: number, max: number): string {
  return `Prompt is ${length} characters — the limit is ${max}. Shorten it to send.`;
}

function toReferenceInputs(images: readonly (DraftImage | null)[]): ReferenceInput[] {
  return images.filter((image) => image !== null).map((image) => (image.source === "file" ? image.file : image.url));
}

/** Why the draft can't be sent right now, or null. Read live so the form can say it before a send. */
export function useSendBlocker(config: StudioConfig): string | null {
  const mode = useStudioStore((state) => state.mode);
  const prompt = useStudioStore((state) => state.prompt);
  const imageModel = useStudioStore((state) => state.imageModel);
  const videoModel = useStudioStore((state) => state.videoModel);
    const firstFrame = useStudioStore((state) => state.firstFrame);
  const lastFrame = useStudioStore((state) => state.lastFrame);

  const max = config.limits.promptMaxLength;
  if (prompt.length > max) return promptTooLongMessage(prompt.length, max);
  if (prompt.trim().length === 0) return "Write a prompt to send.";
  const model = (mode === "image" ? imageModel : videoModel).trim();
  if (!model) return "Choose a model, or type a model id.";
  if (mode === "video") {
    if (lastFrame && !firstFrame) return "Add a first frame to go with the last frame.";
  }
  return null;
}

/** Sends the draft: N side-by-side image requests, or one video task. */
export function useSendDraft(config: StudioConfig) {
  const blocker = useSendBlocker(config);
  const createImage = useCreateImage();
  const createVideo = useCreateVideo();
  const { mutate: mutateImage } = createImage;
  const { mutate: mutateVideo, reset: resetVideo } = createVideo;

  const send = useCallback((): boolean => {
    if (blocker) return false;
    const state = useStudioStore.getState();
    const prompt = state.prompt.trim();
    if (state.mode === "image") {
      const references = toReferenceInputs(state.references);
      const batchId = createLocalId("batch");
      const requestedAt = Date.now();
      for (let index = 0; index < state.imageCount; index += 1) {
        mutateImage({
          prompt,
          model: state.imageModel.trim(),
          aspectRatio: state.aspectRatio || undefined,
          references,
          batchId,
          requestedAt,
        });
      }
      resetVideo();
      return true;
    }
    const frames = toReferenceInputs([state.firstFrame, state.lastFrame]);
    mutateVideo({ prompt, model: state.videoModel.trim(), size: state.videoSize || undefined, frames });
    return true;
  }, [blocker, mutateImage, mutateVideo, resetVideo]);

  return {
    send,
    blocker,
    videoPending: createVideo.isPending,
    videoError: createVideo.error,
    resetVideoError: resetVideo,
  };
}
