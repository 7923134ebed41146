import { useIsMutating } from "@tanstack/react-query";
import { RotateCcw } from "lucide-react";
import { lazy, Suspense, useCallback, useEffect, useState } from "react";
import { Button } from "../../../components/ui/button";
import { describeError } from "../../../lib/error-messages";
import { plural } from "../../../lib/format";
import { useStudioStore } from "../../../stores/studio-store";
import { createImageMutationKey } from "../../create/api/create-image";
import { ErrorNotice } from "../../results/components/error-notice";
import { useGalleryItems } from "../hooks/use-gallery-items";
import { FirstRunEmptyState, NoMatchesEmptyState } from "./empty-state";
import { GalleryFilters } from "./gallery-filters";
import { GalleryGrid } from "./gallery-grid";

const loadLightbox = () => import("./lightbox");
// The lightbox is fetched on first use (and prefetched when the browser is idle).
const Lightbox = lazy(() => loadLightbox().then((module) => ({ default: module.Lightbox })));

function GallerySkeleton() {
  return (
    <div aria-hidden className="grid grid-cols-[repeat(auto-fill,minmax(120px,1fr))] gap-2 sm:grid-cols-[repeat(auto-fill,minmax(168px,1fr))]">
      {Array.from({ length: 12 }, (_, index) => (
        <div key={index} className="aspect-square animate-shimmer rounded-control shimmer" />
      ))}
    </div>
  );
}

/** Every finished image and video in the ledger, newest first, with search and a lightbox. */
export function Gallery() {
  const { query, items, filters, filtered } = useGalleryItems();
  const lightbox = useStudioStore((state) => state.lightbox);
  const openLightbox = useStudioStore((state) => state.openLightbox);
  const search = useStudioStore((state) => state.gallerySearch);
  const videoCards = useStudioStore((state) => state.videoCardIds.length);
  const imagesRunning = useIsMutating({ mutationKey: createImageMutationKey });
  const sessionBusy = videoCards > 0 || imagesRunning > 0;
  const [focusRequest, setFocusRequest] = useState<{ id: string; nonce: number } | null>(null);
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = query;

  const loadMore = useCallback(() => void fetchNextPage(), [fetchNextPage]);
  const revealTile = useCallback((id: string) => setFocusRequest({ id, nonce: Date.now() }), []);
  const hasItems = items.length > 0;
  useEffect(() => {
    if (!hasItems) return;
    const idle = window.requestIdleCallback ?? ((callback: () => void) => window.setTimeout(callback, 1500));
    idle(() => void loadLightbox());
  }, [hasItems]);

  const searching = query.isFetching && !query.isFetchingNextPage && search.trim() !== "";

  let body;
  if (query.isPending) {
    body = <GallerySkeleton />;
  } else if (query.isError && items.length === 0) {
    body = (
      <div className="flex flex-col items-start gap-3 rounded-panel border border-line bg-surface p-4">
        <ErrorNotice error={describeError(query.error)} />
        <Button size="sm" onClick={() => void query.refetch()}>
          <RotateCcw aria-hidden />
          Try again
        </Button>
      </div>
    );
  } else if (items.length === 0) {
    body = filtered ? (
      <NoMatchesEmptyState query={filters.q} />
    ) : sessionBusy ? (
      <p className="rounded-panel border border-dashed border-line px-4 py-6 text-center text-ink-muted">
        Finished images and videos will appear here.
      </p>
    ) : (
      <FirstRunEmptyState />
    );
  } else {
    body = (
      <GalleryGrid
        items={items}
        hasNextPage={hasNextPage}
        isFetchingNextPage={isFetchingNextPage}
        fetchNextPage={loadMore}
        onOpen={openLightbox}
        total={hasNextPage ? -1 : items.length}
        focusRequest={focusRequest}
      />
    );
  }

  return (
    <section aria-labelledby="gallery-heading" className="flex flex-col gap-3">
      <div className="flex items-baseline justify-between gap-2">
        <h2 id="gallery-heading" className="text-sm font-semibold text-ink">
          Gallery
        </h2>
        {!query.isPending && items.length > 0 ? (
          <span className="text-2xs text-ink-faint tabular-nums" aria-live="polite">
            {hasNextPage ? `${items.length.toLocaleString("en-US")}+ items` : plural(items.length, "item")}
          </span>
        ) : null}
      </div>
      <GalleryFilters busy={searching} />
      {body}
      {lightbox ? (
        <Suspense fallback={null}>
          <Lightbox
          key={lightbox.openerId}
          id={lightbox.id}
          openerId={lightbox.openerId}
          items={items}
          hasNextPage={hasNextPage}
          fetchNextPage={fetchNextPage}
          revealTile={revealTile}
          />
        </Suspense>
      ) : null}
    </section>
  );
}
