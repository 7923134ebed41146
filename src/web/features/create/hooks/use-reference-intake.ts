import { useCallback } from "react";
import type { StudioConfig } from "../../../../api/studio";
import { isHttpUrl, takeImageFiles } from "../../../lib/image-files";
import {
  draftImageFromFile,
  draftImageFromUrl,
  useStudioStore,
  type FrameSlotName,
} from "../../../stores/studio-store";

/** Where incoming images go: the image form's references, one frame slot, or "wherever fits". */
export type IntakeTarget = "references" | FrameSlotName | "auto";

type Limits = StudioConfig["limits"];

/**
 * Every way an image enters the form (drop, browse, paste, URL, "Use as reference") goes through
 * here, so type, size and count are checked the same way with the same sentences.
 */
export function useReferenceIntake(limits: Limits) {
  const addReferences = useStudioStore((state) => state.addReferences);
  const setFrame = useStudioStore((state) => state.setFrame);
  const setIntakeProblems = useStudioStore((state) => state.setIntakeProblems);

  const place = useCallback(
    (incoming: File[] | string, target: IntakeTarget): string[] => {
      const state = useStudioStore.getState();
      const resolved = target === "auto" ? (state.mode === "image" ? "references" : "frames") : target;

      if (resolved === "references") {
        const free = Math.max(0, limits.maxReferenceImages - state.references.length);
        if (typeof incoming === "string") {
          if (free === 0) {
            return [`Up to ${limits.maxReferenceImages} reference images per request — remove one to add this link.`];
          }
          addReferences([draftImageFromUrl(incoming)]);
          return [];
        }
        const { accepted, problems } = takeImageFiles(incoming, limits, free);
        if (accepted.length > 0) addReferences(accepted.map(draftImageFromFile));
        return problems;
      }

      // Frame slots hold one image each.
      const slots: FrameSlotName[] =
        resolved === "frames"
          ? (["first", "last"] as const).filter((slot) => !(slot === "first" ? state.firstFrame : state.lastFrame))
          : [resolved];
      if (slots.length === 0) {
        return ["Both frame slots are full — remove a frame to add another."];
      }
      if (typeof incoming === "string") {
        const slot = slots[0];
        if (slot) setFrame(slot, draftImageFromUrl(incoming));
        return [];
      }
      const { accepted, problems } = takeImageFiles(incoming, { ...limits, maxReferenceImages: slots.length }, slots.length);
      const countProblem = problems.findIndex((problem) => problem.startsWith("Up to "));
      if (countProblem >= 0) {
        problems[countProblem] =
          slots.length === 1
            ? "A frame slot holds one image — only the first was used."
            : "A video takes a first and a last frame — only the first two images were used.";
      }
      accepted.forEach((file, index) => {
        const slot = slots[index];
        if (slot) setFrame(slot, draftImageFromFile(file));
      });
      return problems;
    },
    [addReferences, limits, setFrame],
  );

  const addFiles = useCallback(
    (files: File[], target: IntakeTarget = "auto") => {
      if (files.length === 0) return;
      setIntakeProblems(place(files, target));
    },
    [place, setIntakeProblems],
  );

  const addUrl = useCallback(
    (raw: string, target: IntakeTarget = "auto"): boolean => {
      const url = raw.trim();
      if (!isHttpUrl(url)) {
        setIntakeProblems([`“${url.slice(0, 80)}” isn't an image link. Paste a full http:// or https:// address.`]);
        return false;
      }
      const problems = place(url, target);
      setIntakeProblems(problems);
      return problems.length === 0;
    },
    [place, setIntakeProblems],
  );

  return { addFiles, addUrl };
}
