import { Film, ImageOff, Play, Star } from "lucide-react";
import { memo, useState } from "react";
import type { Generation } from "../../../../api/studio";

/** The picture a tile shows: the server thumbnail, else the image itself or the video cover. */
export function thumbnailOf(generation: Generation): string | null {
  const output = generation.outputs[0];
  if (!output) return null;
  if (output.thumbnailUrl) return output.thumbnailUrl;
  if (generation.kind === "video") return output.coverUrl;
  return output.url;
}

export function shortPrompt(prompt: string, max = 80): string {
  return prompt.length > max ? `${prompt.slice(0, max).trimEnd()}…` : prompt;
}

/** A thumbnail that shows a quiet placeholder (not a broken-image icon) if its file can't load. */
function Thumbnail({ src }: { src: string }) {
  const [failed, setFailed] = useState(false);
  if (failed) {
    return (
      <span className="flex size-full items-center justify-center text-ink-faint">
        <ImageOff aria-hidden className="size-5" />
      </span>
    );
  }
  return (
    <img
      src={src}
      alt=""
      loading="lazy"
      decoding="async"
      draggable={false}
      onError={() => setFailed(true)}
      className="size-full object-cover transition-[transform,opacity] duration-300 ease-calm group-hover:scale-[1.03]"
    />
  );
}

interface GalleryTileProps {
  generation: Generation;
  position: number;
  total: number;
  onOpen: (id: string) => void;
}

export const GalleryTile = memo(function GalleryTile({ generation, position, total, onOpen }: GalleryTileProps) {
  const thumbnail = thumbnailOf(generation);
  const isVideo = generation.kind === "video";
  return (
    <div role="listitem" aria-posinset={position} aria-setsize={total} className="relative min-w-0">
      <button
        type="button"
        data-gallery-id={generation.id}
        onClick={() => onOpen(generation.id)}
        aria-label={`Open ${isVideo ? "video" : "image"}: ${shortPrompt(generation.prompt)}`}
        className="group relative block aspect-square w-full overflow-hidden rounded-control bg-surface-sunken focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-focus"
      >
        {thumbnail ? (
          // Keyed by URL: when the mirrored copy replaces the provider's, a fresh image loads.
          <Thumbnail key={thumbnail} src={thumbnail} />
        ) : (
          <span className="flex size-full items-center justify-center text-ink-faint">
            <Film aria-hidden className="size-6" />
          </span>
        )}
        <span className="pointer-events-none absolute inset-0 rounded-control ring-1 ring-inset ring-black/5 dark:ring-white/5" />
        {isVideo ? (
          <span className="absolute top-1.5 left-1.5 flex items-center gap-1 rounded bg-black/60 px-1.5 py-0.5 text-2xs font-medium text-white">
            <Play aria-hidden className="size-3 fill-current" />
            Video
          </span>
        ) : null}
        {generation.favourite ? (
          <span className="absolute top-1.5 right-1.5 rounded-full bg-black/55 p-1 text-amber-300">
            <Star aria-hidden className="size-3 fill-current" />
            <span className="sr-only">Favourite</span>
          </span>
        ) : null}
      </button>
    </div>
  );
});
