import { useWindowVirtualizer } from "@tanstack/react-virtual";
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from "react";
import type { Generation } from "../../../../api/studio";
import { Spinner } from "../../../components/ui/spinner";
import { GalleryTile } from "./gallery-tile";

const GAP = 8;
const MIN_TILE = 168;
const MIN_TILE_NARROW = 104;

export function columnsFor(width: number): number {
  const min = width < 520 ? MIN_TILE_NARROW : MIN_TILE;
  return Math.max(2, Math.min(10, Math.floor((width + GAP) / (min + GAP))));
}

interface GalleryGridProps {
  items: readonly Generation[];
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  fetchNextPage: () => void;
  onOpen: (id: string) => void;
  /** Total for screen readers; -1 while more pages exist. */
  total: number;
  /** Scroll to this tile and focus it (after the lightbox closes on an item far away). */
  focusRequest: { id: string; nonce: number } | null;
}

/**
 * A responsive grid virtualised by rows against the window scroll, so only the rows on screen
 * (plus a few) are in the DOM however many thousands of items are loaded.
 */
export function GalleryGrid({
  items,
  hasNextPage,
  isFetchingNextPage,
  fetchNextPage,
  onOpen,
  total,
  focusRequest,
}: GalleryGridProps) {
  const listRef = useRef<HTMLDivElement>(null);
  const [layout, setLayout] = useState({ width: 0, top: 0 });

  // Track the grid's width (columns) and its distance from the top of the page (scroll margin):
  // the create form and the session results above it change height as work comes in.
  useLayoutEffect(() => {
    const element = listRef.current;
    if (!element) return;
    const update = () => {
      const rect = element.getBoundingClientRect();
      const next = { width: Math.round(rect.width), top: Math.round(rect.top + window.scrollY) };
      setLayout((current) => (current.width === next.width && current.top === next.top ? current : next));
    };
    update();
    const observer = new ResizeObserver(update);
    observer.observe(element);
    observer.observe(document.body);
    window.addEventListener("resize", update);
    return () => {
      observer.disconnect();
      window.removeEventListener("resize", update);
    };
  }, []);

  const width = layout.width || 960;
  const columns = columnsFor(width);
  const tile = (width - GAP * (columns - 1)) / columns;
  const rowHeight = tile + GAP;
  const rowCount = Math.ceil(items.length / columns);

  const virtualizer = useWindowVirtualizer({
    count: rowCount,
    estimateSize: () => rowHeight,
    overscan: 3,
    scrollMargin: layout.top,
    // Render the first rows in the very first pass instead of after a measuring round trip.
    initialRect: { width: window.innerWidth, height: window.innerHeight },
  });

  useEffect(() => {
    virtualizer.measure();
  }, [rowHeight, virtualizer]);

  const virtualRows = virtualizer.getVirtualItems();
  const lastRow = virtualRows.at(-1)?.index ?? -1;

  // Load the next page a few rows before the end.
  useEffect(() => {
    if (hasNextPage && !isFetchingNextPage && lastRow >= rowCount - 4) fetchNextPage();
  }, [fetchNextPage, hasNextPage, isFetchingNextPage, lastRow, rowCount]);

  useEffect(() => {
    if (!focusRequest) return;
    const selector = `[data-gallery-id="${CSS.escape(focusRequest.id)}"]`;
    const focusTile = () => listRef.current?.querySelector<HTMLElement>(selector)?.focus();
    const index = items.findIndex((item) => item.id === focusRequest.id);
    if (index < 0) return;
    if (!listRef.current?.querySelector(selector)) virtualizer.scrollToIndex(Math.floor(index / columns), { align: "center" });
    const frame = requestAnimationFrame(() => requestAnimationFrame(focusTile));
    return () => cancelAnimationFrame(frame);
    // Only when a new request comes in.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [focusRequest]);

  const open = useCallback((id: string) => onOpen(id), [onOpen]);

  return (
    <div>
      <div
        ref={listRef}
        role="list"
        aria-label="Gallery"
        aria-busy={isFetchingNextPage || undefined}
        className="relative w-full"
        style={{ height: virtualizer.getTotalSize() }}
      >
        {virtualRows.map((row) => {
          const start = row.index * columns;
          return (
            <div
              key={row.key}
              role="presentation"
              className="absolute top-0 left-0 grid w-full"
              style={{
                height: rowHeight - GAP,
                transform: `translateY(${row.start - virtualizer.options.scrollMargin}px)`,
                gridTemplateColumns: `repeat(${columns}, minmax(0, 1fr))`,
                gap: GAP,
              }}
            >
              {items.slice(start, start + columns).map((generation, offset) => (
                <GalleryTile
                  key={generation.id}
                  generation={generation}
                  position={start + offset + 1}
                  total={total}
                  onOpen={open}
                />
              ))}
            </div>
          );
        })}
      </div>
      {isFetchingNextPage ? (
        <p className="flex items-center justify-center gap-2 py-4 text-xs text-ink-muted">
          <Spinner /> Loading more…
        </p>
      ) : null}
    </div>
  );
}
