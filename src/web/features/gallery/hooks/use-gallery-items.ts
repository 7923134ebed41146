import { useMemo } from "react";
import type { Generation } from "../../../../api/studio";
import { useDebouncedValue } from "../../../lib/use-debounced-value";
import { useStudioStore } from "../../../stores/studio-store";
import { useGalleryGenerations, type GalleryFilters } from "../../generations/api/list-generations";

export const SEARCH_DEBOUNCE_MS = 300;

/** The gallery's current filters (search debounced) and its loaded items, flattened. */
export function useGalleryItems() {
  const kind = useStudioStore((state) => state.galleryKind);
  const search = useStudioStore((state) => state.gallerySearch);
  const favourite = useStudioStore((state) => state.galleryFavourites);
  const q = useDebouncedValue(search.trim(), SEARCH_DEBOUNCE_MS);

  const filters = useMemo<GalleryFilters>(() => ({ kind: kind === "all" ? null : kind, q, favourite }), [kind, q, favourite]);
  const query = useGalleryGenerations(filters);
  const items = useMemo<Generation[]>(() => query.data?.pages.flatMap((page) => page.items) ?? [], [query.data]);
  const filtered = filters.kind !== null || filters.q !== "" || filters.favourite;

  return { query, items, filters, filtered };
}

export type GalleryItemsState = ReturnType<typeof useGalleryItems>;
