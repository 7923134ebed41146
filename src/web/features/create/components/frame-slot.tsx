import { ImagePlus, RefreshCw, X } from "lucide-react";
import type { ClipboardEvent } from "react";
import { useDropzone } from "react-dropzone";
import { Button } from "../../../components/ui/button";
import { isHttpUrl } from "../../../lib/image-files";
import { cn } from "../../../lib/utils";
import { useStudioStore, type FrameSlotName } from "../../../stores/studio-store";
import type { IntakeTarget } from "../hooks/use-reference-intake";

interface FrameSlotProps {
  slot: FrameSlotName;
  accept: readonly string[];
  onFiles: (files: File[], target: IntakeTarget) => void;
  onUrl: (url: string, target: IntakeTarget) => boolean;
}

const titles: Record<FrameSlotName, string> = { first: "First frame", last: "Last frame" };

/** One video frame: drop, click to browse, or focus and paste (an image or an image link). */
export function FrameSlot({ slot, accept, onFiles, onUrl }: FrameSlotProps) {
  const image = useStudioStore((state) => (slot === "first" ? state.firstFrame : state.lastFrame));
  const setFrame = useStudioStore((state) => state.setFrame);
  const title = titles[slot];

  const { getRootProps, getInputProps, open, isDragActive } = useDropzone({
    onDrop: (accepted, rejected) => onFiles([...accepted, ...rejected.map((rejection) => rejection.file)], slot),
    noClick: true,
    noKeyboard: true,
    noDragEventsBubbling: true,
    multiple: false,
  });

  const onPaste = (event: ClipboardEvent<HTMLElement>) => {
    if (event.clipboardData.files.length > 0) return; // the dropzone takes files
    const text = event.clipboardData.getData("text/plain").trim();
    if (text && isHttpUrl(text)) {
      event.preventDefault();
      event.stopPropagation();
      onUrl(text, slot);
    }
  };

  return (
    <div
      {...getRootProps({ onPaste })}
      role="group"
      aria-label={title}
      className={cn(
        "relative flex aspect-video min-w-0 flex-col overflow-hidden rounded-control border border-dashed border-line-strong bg-surface-sunken transition-colors",
        isDragActive && "border-accent bg-accent-soft",
        image && "border-solid border-line",
      )}
    >
      <input {...getInputProps({ accept: accept.join(",") })} aria-label={`Choose a file for the ${title.toLowerCase()}`} />
      {image ? (
        <>
          <img
            src={image.previewUrl}
            alt={`${title}: ${image.source === "file" ? image.file.name : image.url}`}
            className="size-full object-cover"
            draggable={false}
          />
          <span className="absolute top-1.5 left-1.5 rounded bg-black/60 px-1.5 py-0.5 text-2xs font-medium text-white">
            {title}
          </span>
          <div className="absolute top-1.5 right-1.5 flex gap-1">
            <Button variant="overlay" size="icon-sm" className="size-6" aria-label={`Replace ${title.toLowerCase()}`} onClick={open}>
              <RefreshCw aria-hidden />
            </Button>
            <Button
              variant="overlay"
              size="icon-sm"
              className="size-6"
              aria-label={`Remove ${title.toLowerCase()}`}
              onClick={() => setFrame(slot, null)}
            >
              <X aria-hidden />
            </Button>
          </div>
        </>
      ) : (
        <button
          type="button"
          onClick={open}
          className="flex size-full flex-col items-center justify-center gap-1 px-2 text-center text-ink-muted transition-colors hover:text-ink"
        >
          <ImagePlus aria-hidden className="size-5" />
          <span className="text-xs font-medium text-ink">{title}</span>
          <span className="text-2xs">Drop, paste or browse</span>
        </button>
      )}
    </div>
  );
}
