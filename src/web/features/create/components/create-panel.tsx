import { CircleAlert, Film, ImageIcon, Send, X } from "lucide-react";
import { useEffect, useId, type ClipboardEvent, type FormEvent } from "react";
import { useDropzone } from "react-dropzone";
import type { StudioConfig } from "../../../../api/studio";
import { Button } from "../../../components/ui/button";
import { Kbd } from "../../../components/ui/kbd";
import { Label, Select } from "../../../components/ui/input";
import { Tabs } from "../../../components/ui/tabs";
import { describeError } from "../../../lib/error-messages";
import { isHttpUrl } from "../../../lib/image-files";
import { cn } from "../../../lib/utils";
import { useStudioStore, type StudioMode } from "../../../stores/studio-store";
import { useReferenceIntake } from "../hooks/use-reference-intake";
import { useSendDraft } from "../hooks/use-send-draft";
import { AspectRatioField, ImageCountField } from "./aspect-ratio-field";
import { FrameSlot } from "./frame-slot";
import { ModelField } from "./model-field";
import { PromptField } from "./prompt-field";
import { ReferenceImages } from "./reference-images";

const isMac = typeof navigator !== "undefined" && /Mac|iPhone|iPad/.test(navigator.platform || navigator.userAgent);
const modeItems = [
  { value: "image", label: (<><ImageIcon aria-hidden />Image</>) },
  { value: "video", label: (<><Film aria-hidden />Video</>) },
] as const;

function isTextField(target: EventTarget | null): boolean {
  return target instanceof HTMLElement && (target.tagName === "TEXTAREA" || target.tagName === "INPUT" || target.isContentEditable);
}

export function CreatePanel({ config }: { config: StudioConfig }) {
  const mode = useStudioStore((state) => state.mode);
  const setMode = useStudioStore((state) => state.setMode);
  const imageModel = useStudioStore((state) => state.imageModel);
  const videoModel = useStudioStore((state) => state.videoModel);
  const setImageModel = useStudioStore((state) => state.setImageModel);
  const setVideoModel = useStudioStore((state) => state.setVideoModel);
  const videoSize = useStudioStore((state) => state.videoSize);
  const setVideoSize = useStudioStore((state) => state.setVideoSize);
  const imageCount = useStudioStore((state) => state.imageCount);
  const intakeProblems = useStudioStore((state) => state.intakeProblems);
  const setIntakeProblems = useStudioStore((state) => state.setIntakeProblems);
  const sizeId = useId();

  const { limits } = config;
  const { addFiles, addUrl } = useReferenceIntake(limits);
  const { send, blocker, videoPending, videoError, resetVideoError } = useSendDraft(config);

  // Start with the first listed model; the field stays free to clear and retype afterwards.
  useEffect(() => {
    const state = useStudioStore.getState();
    if (!state.imageModel && config.imageModels[0]) state.setImageModel(config.imageModels[0]);
    if (!state.videoModel && config.videoModels[0]) state.setVideoModel(config.videoModels[0]);
    if (config.aspectRatios.length > 0 && !config.aspectRatios.includes(state.aspectRatio)) {
      state.setAspectRatio(config.aspectRatios[0] ?? "1:1");
    }
  }, [config]);

  // The whole form is a drop target; files pasted anywhere in it are taken too.
  const { getRootProps, getInputProps, open, isDragActive } = useDropzone({
    onDrop: (accepted, rejected) => addFiles([...accepted, ...rejected.map((rejection) => rejection.file)], "auto"),
    noClick: true,
    noKeyboard: true,
  });

  const onPaste = (event: ClipboardEvent<HTMLElement>) => {
    if (event.clipboardData.files.length > 0 || isTextField(event.target)) return;
    const text = event.clipboardData.getData("text/plain").trim();
    if (text && isHttpUrl(text)) {
      event.preventDefault();
      addUrl(text, "auto");
    }
  };

  // Ctrl/Cmd+Enter sends from anywhere on the page (the lightbox has its own keys).
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== "Enter" || !(event.ctrlKey || event.metaKey) || event.defaultPrevented) return;
      if (useStudioStore.getState().lightbox) return;
      if (event.target instanceof Element && event.target.closest("[role=dialog]")) return;
      event.preventDefault();
      send();
    };
    document.addEventListener("keydown", onKeyDown);
    return () => document.removeEventListener("keydown", onKeyDown);
  }, [send]);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    send();
  };

  const videoProblem = videoError ? describeError(videoError) : null;
  const sendLabel =
    mode === "video" ? "Generate video" : imageCount === 1 ? "Generate image" : `Generate ${imageCount} images`;

  return (
    <section aria-labelledby="create-heading" className="flex flex-col">
      <h2 id="create-heading" className="sr-only">
        Create
      </h2>
      <form
        {...getRootProps({ onPaste, onSubmit, role: "form" })}
        aria-label="Create"
        noValidate
        className={cn(
          "relative flex flex-col gap-4 rounded-panel border border-line bg-surface p-4 shadow-panel transition-colors",
          isDragActive && "border-accent",
        )}
      >
        <div className="absolute size-0 overflow-hidden">
          <input {...getInputProps({ accept: limits.acceptedImageTypes.join(",") })} aria-label="Choose reference images" />
        </div>

        <Tabs
          label="What to create"
          idPrefix="mode"
          value={mode}
          items={modeItems}
          onChange={(value: StudioMode) => setMode(value)}
        />

        <div role="tabpanel" id={`mode-panel-${mode}`} aria-labelledby={`mode-tab-${mode}`} className="flex flex-col gap-4">
          <PromptField max={limits.promptMaxLength} />

          {mode === "image" ? (
            <>
              <ModelField id="image-model" models={config.imageModels} value={imageModel} onChange={setImageModel} />
              <AspectRatioField ratios={config.aspectRatios} />
              <ImageCountField />
              <ReferenceImages limits={limits} onBrowse={open} onAddUrl={(url) => addUrl(url, "references")} />
            </>
          ) : (
            <>
              <div className="grid grid-cols-[minmax(0,1fr)_8.5rem] gap-2">
                <ModelField id="video-model" models={config.videoModels} value={videoModel} onChange={setVideoModel} />
                <div className="flex flex-col gap-1.5">
                  <Label htmlFor={sizeId}>Size</Label>
                  <Select id={sizeId} value={videoSize} onChange={(event) => setVideoSize(event.target.value)} className="font-mono text-xs">
                    <option value="">Default</option>
                    {config.videoSizes.map((size) => (
                      <option key={size} value={size}>
                        {size}
                      </option>
                    ))}
                  </Select>
                </div>
              </div>
              <fieldset className="flex flex-col gap-1.5">
                <legend className="mb-1.5 text-xs font-medium text-ink-muted">Frames (optional)</legend>
                <div className="grid grid-cols-2 gap-2">
                  <FrameSlot slot="first" accept={limits.acceptedImageTypes} onFiles={addFiles} onUrl={addUrl} />
                  <FrameSlot slot="last" accept={limits.acceptedImageTypes} onFiles={addFiles} onUrl={addUrl} />
                </div>
              </fieldset>
            </>
          )}
        </div>

        {intakeProblems.length > 0 ? (
          <div role="alert" className="flex items-start gap-2 rounded-control border border-danger/40 bg-danger-soft px-3 py-2 text-xs text-danger">
            <CircleAlert aria-hidden className="mt-0.5 size-3.5 shrink-0" />
            <ul className="min-w-0 flex-1 space-y-0.5">
              {intakeProblems.map((problem) => (
                <li key={problem}>{problem}</li>
              ))}
            </ul>
            <button
              type="button"
              onClick={() => setIntakeProblems([])}
              className="-m-0.5 rounded p-0.5 hover:bg-danger/10"
              aria-label="Dismiss file messages"
            >
              <X aria-hidden className="size-3.5" />
            </button>
          </div>
        ) : null}

        {videoProblem && mode === "video" ? (
          <div role="alert" className="flex items-start gap-2 rounded-control border border-danger/40 bg-danger-soft px-3 py-2 text-xs text-danger">
            <CircleAlert aria-hidden className="mt-0.5 size-3.5 shrink-0" />
            <div className="min-w-0 flex-1">
              <p className="font-medium">{videoProblem.message}</p>
              {videoProblem.detail ? <p className="mt-0.5 opacity-80">{videoProblem.detail}</p> : null}
            </div>
            <button type="button" onClick={resetVideoError} className="-m-0.5 rounded p-0.5 hover:bg-danger/10" aria-label="Dismiss error">
              <X aria-hidden className="size-3.5" />
            </button>
          </div>
        ) : null}

        <div className="flex flex-col gap-2">
          <Button type="submit" variant="primary" size="lg" disabled={Boolean(blocker) || videoPending} aria-describedby="send-hint" className="w-full">
            <Send aria-hidden />
            {videoPending ? "Submitting…" : sendLabel}
          </Button>
          <p id="send-hint" className={cn("text-center text-2xs text-ink-faint", blocker && "text-ink-muted")}>
            {blocker ?? (
              <>
                Send with <Kbd>{isMac ? "⌘" : "Ctrl"}</Kbd> <Kbd>Enter</Kbd>
              </>
            )}
          </p>
        </div>

        {isDragActive ? (
          <div
            aria-hidden
            className="pointer-events-none absolute inset-0 flex animate-fade-in items-center justify-center rounded-panel border-2 border-dashed border-accent bg-canvas/85 text-sm font-medium text-ink backdrop-blur-sm"
          >
            {mode === "image" ? "Drop to add reference images" : "Drop to fill the frame slots"}
          </div>
        ) : null}
      </form>
    </section>
  );
}
