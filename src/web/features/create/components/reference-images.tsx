import { ArrowLeft, ArrowRight, ImagePlus, Link2, X } from "lucide-react";
import { useEffect, useRef, useState, type KeyboardEvent } from "react";
import type { StudioConfig } from "../../../../api/studio";
import { Button } from "../../../components/ui/button";
import { Input } from "../../../components/ui/input";
import { formatBytes, formatImageTypes } from "../../../lib/format";
import { useStudioStore, type DraftImage } from "../../../stores/studio-store";

function describe(image: DraftImage): string {
  return image.source === "file" ? image.file.name || "pasted image" : image.url;
}

interface ReferenceImagesProps {
  limits: StudioConfig["limits"];
  onBrowse: () => void;
  onAddUrl: (url: string) => boolean;
}

export function ReferenceImages({ limits, onBrowse, onAddUrl }: ReferenceImagesProps) {
  const references = useStudioStore((state) => state.references);
  const removeReference = useStudioStore((state) => state.removeReference);
  const moveReference = useStudioStore((state) => state.moveReference);
  const [url, setUrl] = useState("");
  const buttons = useRef(new Map<string, HTMLButtonElement>());
  const [refocus, setRefocus] = useState<string | null>(null);
  const full = references.length >= limits.maxReferenceImages;

  // Reordering moves DOM nodes; put focus back on the button that was pressed.
  useEffect(() => {
    if (!refocus) return;
    buttons.current.get(refocus)?.focus();
  }, [refocus, references]);

  const register = (key: string) => (node: HTMLButtonElement | null) => {
    if (node) buttons.current.set(key, node);
    else buttons.current.delete(key);
  };

  const addUrl = () => {
    if (!url.trim()) return;
    if (onAddUrl(url)) setUrl("");
  };
  const onUrlKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === "Enter" && !event.ctrlKey && !event.metaKey) {
      event.preventDefault();
      addUrl();
    }
  };

  return (
    <fieldset className="flex min-w-0 flex-col gap-2">
      <legend className="mb-1.5 flex w-full items-baseline justify-between text-xs font-medium text-ink-muted">
        <span>Reference images</span>
        <span className="font-mono text-2xs tabular-nums text-ink-faint">
          {references.length} / {limits.maxReferenceImages}
        </span>
      </legend>

      {references.length > 0 ? (
        <ol aria-label="Reference images in order" className="grid grid-cols-4 gap-1.5">
          {references.map((image, index) => {
            const position = index + 1;
            return (
              <li key={image.id} className="group relative aspect-square overflow-hidden rounded-control border border-line checkerboard">
                <img
                  src={image.previewUrl}
                  alt={`Reference ${position}: ${describe(image)}`}
                  className="size-full object-cover"
                  draggable={false}
                />
                <span className="absolute top-1 left-1 rounded bg-black/60 px-1 font-mono text-2xs text-white">{position}</span>
                <Button
                  ref={register(`${image.id}:remove`)}
                  variant="overlay"
                  size="icon-sm"
                  className="absolute top-1 right-1 size-6"
                  aria-label={`Remove reference ${position}`}
                  onClick={() => removeReference(image.id)}
                >
                  <X aria-hidden />
                </Button>
                <div className="absolute inset-x-1 bottom-1 flex justify-between">
                  <Button
                    ref={register(`${image.id}:earlier`)}
                    variant="overlay"
                    size="icon-sm"
                    className="size-6"
                    aria-label={`Move reference ${position} earlier`}
                    disabled={index === 0}
                    onClick={() => {
                      moveReference(image.id, -1);
                      setRefocus(index - 1 === 0 ? `${image.id}:later` : `${image.id}:earlier`);
                    }}
                  >
                    <ArrowLeft aria-hidden />
                  </Button>
                  <Button
                    ref={register(`${image.id}:later`)}
                    variant="overlay"
                    size="icon-sm"
                    className="size-6"
                    aria-label={`Move reference ${position} later`}
                    disabled={index === references.length - 1}
                    onClick={() => {
                      moveReference(image.id, 1);
                      setRefocus(index + 1 === references.length - 1 ? `${image.id}:earlier` : `${image.id}:later`);
                    }}
                  >
                    <ArrowRight aria-hidden />
                  </Button>
                </div>
                {image.source === "url" ? (
                  <Link2 aria-hidden className="absolute right-1.5 bottom-8 size-3.5 text-white drop-shadow" />
                ) : null}
              </li>
            );
          })}
        </ol>
      ) : null}

      <button
        type="button"
        onClick={onBrowse}
        disabled={full}
        className="flex w-full flex-col items-center justify-center gap-1 rounded-control border border-dashed border-line-strong px-3 py-4 text-center text-ink-muted transition-colors hover:border-accent hover:text-ink disabled:cursor-not-allowed disabled:opacity-50"
        aria-describedby="reference-hint"
      >
        <ImagePlus aria-hidden className="size-5" />
        <span className="text-[13px] font-medium text-ink">{full ? "Reference limit reached" : "Add reference images"}</span>
        <span id="reference-hint" className="text-2xs">
          Drop, paste or browse · {formatImageTypes(limits.acceptedImageTypes)} · up to {formatBytes(limits.maxReferenceImageBytes)} each
        </span>
      </button>

      <div className="flex gap-1.5">
        <label htmlFor="reference-url" className="sr-only">
          Image URL
        </label>
        <Input
          id="reference-url"
          type="url"
          inputMode="url"
          placeholder="…or paste an image URL"
          value={url}
          onChange={(event) => setUrl(event.target.value)}
          onKeyDown={onUrlKeyDown}
          disabled={full}
          autoComplete="off"
        />
        <Button onClick={addUrl} disabled={full || !url.trim()} aria-label="Add image URL">
          Add
        </Button>
      </div>
    </fieldset>
  );
}
