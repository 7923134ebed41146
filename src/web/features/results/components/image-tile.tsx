import { useQuery } from "@tanstack/react-query";
import { RotateCcw, X } from "lucide-react";
import { Button } from "../../../components/ui/button";
import { Spinner } from "../../../components/ui/spinner";
import { describeError } from "../../../lib/error-messages";
import { formatElapsed } from "../../../lib/format";
import { useNow } from "../../../lib/use-now";
import { cn } from "../../../lib/utils";
import { useStudioStore } from "../../../stores/studio-store";
import { generationQueryOptions } from "../../generations/api/get-generation";
import type { ImageRun } from "../hooks/use-image-runs";
import { ErrorNotice } from "./error-notice";

function ratioStyle(ratio: string | undefined) {
  const [w, h] = (ratio ?? "1:1").split(":").map(Number);
  return { aspectRatio: w && h ? `${w} / ${h}` : "1 / 1" };
}

interface ImageTileProps {
  run: ImageRun;
  onRetry: (run: ImageRun) => void;
  onDismiss: (run: ImageRun) => void;
}

export function ImageTile({ run, onRetry, onDismiss }: ImageTileProps) {
  const openLightbox = useStudioStore((state) => state.openLightbox);
  // The freshest copy (events may bring a newer one, e.g. once the thumbnail is made).
  const { data: latest } = useQuery({ ...generationQueryOptions(run.generation?.id ?? ""), enabled: false });
  const pending = run.status === "pending" || run.status === "idle";
  const now = useNow(pending);
  const label = run.request.prompt.length > 60 ? `${run.request.prompt.slice(0, 60)}…` : run.request.prompt;

  if (pending) {
    return (
      <li
        aria-busy="true"
        aria-label={`Generating image: ${label}`}
        data-state="pending"
        className="relative flex animate-shimmer flex-col items-center justify-center gap-2 overflow-hidden rounded-panel border border-line shimmer text-ink-muted"
        style={ratioStyle(run.request.aspectRatio)}
      >
        <Spinner className="size-5 text-accent" />
        <span className="text-xs font-medium">Generating…</span>
        <span className="font-mono text-2xs tabular-nums text-ink-faint">{formatElapsed(now - run.request.requestedAt)}</span>
      </li>
    );
  }

  if (run.status === "error") {
    const error = describeError(run.error);
    return (
      <li
        data-state="error"
        aria-label={`Image failed: ${label}`}
        className="relative flex min-h-40 flex-col justify-between gap-3 rounded-panel border border-danger/40 bg-danger-soft/60 p-3"
        style={ratioStyle(run.request.aspectRatio)}
      >
        <ErrorNotice error={error} />
        <div className="flex gap-1.5">
          <Button size="sm" variant="secondary" onClick={() => onRetry(run)}>
            <RotateCcw aria-hidden />
            Retry
          </Button>
          <Button size="sm" variant="ghost" onClick={() => onDismiss(run)}>
            Dismiss
          </Button>
        </div>
      </li>
    );
  }

  const generation = latest ?? run.generation;
  const output = generation?.outputs[0];
  if (!generation || !output) return null;
  return (
    <li data-state="success" className="group relative overflow-hidden rounded-panel border border-line checkerboard" style={ratioStyle(run.request.aspectRatio)}>
      <button
        type="button"
        onClick={() => openLightbox(generation.id)}
        className="block size-full focus-visible:outline-offset-[-2px]"
        aria-label={`Open image: ${label}`}
      >
        <img
          src={output.thumbnailUrl ?? output.url}
          alt={generation.prompt}
          className={cn("size-full object-cover transition-transform duration-300 ease-calm group-hover:scale-[1.02]")}
          decoding="async"
        />
      </button>
      <Button
        variant="overlay"
        size="icon-sm"
        className="absolute top-1.5 right-1.5 size-6 opacity-0 transition-opacity group-hover:opacity-100 focus-visible:opacity-100"
        aria-label="Hide this result"
        onClick={() => onDismiss(run)}
      >
        <X aria-hidden />
      </Button>
    </li>
  );
}
