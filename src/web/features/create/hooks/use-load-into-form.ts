import { useCallback } from "react";
import type { Generation } from "../../../../api/studio";
import { fetchAsFile } from "../../../lib/image-files";
import { draftImageFromFile, draftImageFromUrl, useStudioStore } from "../../../stores/studio-store";
import { useStudioConfig } from "../../config/api/get-config";
import { PROMPT_FIELD_ID } from "../components/prompt-field";
import { useReferenceIntake, type IntakeTarget } from "./use-reference-intake";

const fallbackLimits = {
  promptMaxLength: 3000,
  maxReferenceImages: 4,
  maxReferenceImageBytes: 10 * 1024 * 1024,
  acceptedImageTypes: ["image/png", "image/jpeg", "image/webp", "image/gif"],
};

function focusPrompt() {
  requestAnimationFrame(() => {
    const field = document.getElementById(PROMPT_FIELD_ID);
    field?.focus();
    field?.scrollIntoView?.({ block: "center", behavior: "smooth" });
  });
}

/** "Reuse settings" and "Use as reference": bring a past generation back into the form. */
export function useLoadIntoForm() {
  const { data: config } = useStudioConfig();
  const loadDraft = useStudioStore((state) => state.loadDraft);
  const setMode = useStudioStore((state) => state.setMode);
  const pushToast = useStudioStore((state) => state.pushToast);
  const { addFiles } = useReferenceIntake(config?.limits ?? fallbackLimits);

  const reuseSettings = useCallback(
    async (generation: Generation): Promise<boolean> => {
      try {
        // Links go back as links (the browser may not fetch another site's image); uploads come back as files.
        const images = await Promise.all(
          generation.references.map(async (reference) =>
            reference.sourceUrl
              ? draftImageFromUrl(reference.sourceUrl)
              : draftImageFromFile(await fetchAsFile(reference.url, reference.name, reference.mime)),
          ),
        );
        loadDraft(
          {
            mode: generation.kind,
            prompt: generation.prompt,
            model: generation.model,
            aspectRatio: generation.params.aspect_ratio,
            videoSize: generation.params.size,
          },
          images,
        );
        pushToast({
          tone: "success",
          title: "Settings loaded into the form",
          description:
            generation.references.length > 0
              ? `Prompt, model, parameters and ${generation.references.length} reference image${generation.references.length === 1 ? "" : "s"}.`
              : "Prompt, model and parameters.",
        });
        focusPrompt();
        return true;
      } catch {
        pushToast({ tone: "error", title: "Couldn't load the reference images", description: "Try again in a moment." });
        return false;
      }
    },
    [loadDraft, pushToast],
  );

  /** Puts a still image (an output, or a video's cover) into the references or a frame slot. */
  const addAsReference = useCallback(
    async (image: { url: string; name: string; mime: string }, target: Exclude<IntakeTarget, "auto">): Promise<boolean> => {
      try {
        const file = await fetchAsFile(image.url, image.name, image.mime);
        setMode(target === "references" ? "image" : "video");
        addFiles([file], target);
        const where = target === "references" ? "the reference images" : target === "first" ? "the first frame" : "the last frame";
        pushToast({ tone: "success", title: `Added to ${where}` });
        focusPrompt();
        return true;
      } catch {
        pushToast({ tone: "error", title: "Couldn't load this image", description: "Try again in a moment." });
        return false;
      }
    },
    [addFiles, pushToast, setMode],
  );

  return { reuseSettings, addAsReference };
}
