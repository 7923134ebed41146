import { Search, Star, X } from "lucide-react";
import { Button } from "../../../components/ui/button";
import { Input } from "../../../components/ui/input";
import { Segmented } from "../../../components/ui/segmented";
import { Spinner } from "../../../components/ui/spinner";
import { cn } from "../../../lib/utils";
import { useStudioStore, type GalleryKind } from "../../../stores/studio-store";

const kinds = [
  { value: "all", label: "All" },
  { value: "image", label: "Images" },
  { value: "video", label: "Videos" },
] as const satisfies readonly { value: GalleryKind; label: string }[];

export function GalleryFilters({ busy }: { busy: boolean }) {
  const kind = useStudioStore((state) => state.galleryKind);
  const setKind = useStudioStore((state) => state.setGalleryKind);
  const search = useStudioStore((state) => state.gallerySearch);
  const setSearch = useStudioStore((state) => state.setGallerySearch);
  const favourites = useStudioStore((state) => state.galleryFavourites);
  const setFavourites = useStudioStore((state) => state.setGalleryFavourites);

  return (
    <div role="search" aria-label="Filter the gallery" className="flex flex-wrap items-end gap-2">
      <Segmented name="gallery-kind" legend="Show" hideLegend value={kind} options={kinds} onChange={setKind} className="w-full sm:w-56" />
      <div className="relative min-w-0 flex-1 basis-48">
        <label htmlFor="gallery-search" className="sr-only">
          Search prompts
        </label>
        <Search aria-hidden className="pointer-events-none absolute top-1/2 left-2.5 size-3.5 -translate-y-1/2 text-ink-faint" />
        <Input
          id="gallery-search"
          type="search"
          placeholder="Search prompts"
          value={search}
          onChange={(event) => setSearch(event.target.value)}
          className="pr-8 pl-8 [&::-webkit-search-cancel-button]:hidden"
          autoComplete="off"
        />
        <span className="absolute top-1/2 right-2 flex -translate-y-1/2 items-center">
          {busy ? (
            <Spinner className="size-3.5 text-ink-faint" label="Searching" />
          ) : search ? (
            <button
              type="button"
              onClick={() => setSearch("")}
              className="rounded p-0.5 text-ink-faint hover:text-ink"
              aria-label="Clear search"
            >
              <X aria-hidden className="size-3.5" />
            </button>
          ) : null}
        </span>
      </div>
      <Button
        aria-pressed={favourites}
        onClick={() => setFavourites(!favourites)}
        className={cn(favourites && "border-amber-400/50 text-ink")}
      >
        <Star aria-hidden className={cn(favourites && "fill-amber-400 text-amber-400")} />
        Favourites
      </Button>
    </div>
  );
}
