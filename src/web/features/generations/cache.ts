/**
 * Keeps every cached view of a generation in step when one changes (a finished mutation, a poll,
 * a server-sent event): the detail entry and each loaded gallery list.
 */
import type { InfiniteData, QueryClient } from "@tanstack/react-query";
import type { Generation, GenerationPage } from "../../../api/studio";
import { generationQueryOptions } from "./api/get-generation";
import { generationListRoot, matchesGalleryFilters, type GalleryFilters } from "./api/list-generations";

type GalleryData = InfiniteData<GenerationPage, string | null>;

function filtersOf(queryKey: readonly unknown[]): GalleryFilters | null {
  const filters = queryKey[2];
  if (!filters || typeof filters !== "object") return null;
  return filters as GalleryFilters;
}

function withGeneration(data: GalleryData, generation: Generation, belongs: boolean): GalleryData {
  let found = false;
  let stale = false;
  const pages = data.pages.map((page) => {
    const current = page.items.find((item) => item.id === generation.id);
    if (!current) return page;
    found = true;
    // Events and responses can cross on the wire: never replace a newer copy with an older one.
    if (current.updatedAt > generation.updatedAt) {
      stale = true;
      return page;
    }
    return {
      ...page,
      items: belongs
        ? page.items.map((item) => (item.id === generation.id ? generation : item))
        : page.items.filter((item) => item.id !== generation.id),
    };
  });
  if (stale) return data;
  if (found || !belongs) return found ? { ...data, pages } : data;

  // Not loaded yet: place it by creation time in the first page whose range covers it.
  for (let index = 0; index < pages.length; index += 1) {
    const page = pages[index];
    if (!page) continue;
    const at = page.items.findIndex((item) => item.createdAt < generation.createdAt);
    const isLastLoaded = index === pages.length - 1;
    if (at >= 0 || (isLastLoaded && page.nextCursor === null)) {
      const items = [...page.items];
      items.splice(at >= 0 ? at : items.length, 0, generation);
      pages[index] = { ...page, items };
      return { ...data, pages };
    }
  }
  // Older than everything loaded so far: a later page will bring it.
  return data;
}

export function upsertGeneration(queryClient: QueryClient, generation: Generation): void {
  const detailKey = generationQueryOptions(generation.id).queryKey;
  const current = queryClient.getQueryData(detailKey);
  // A late poll must not overwrite a newer event.
  if (!current || current.updatedAt <= generation.updatedAt) {
    queryClient.setQueryData(detailKey, generation);
  }

  for (const query of queryClient.getQueryCache().findAll({ queryKey: generationListRoot })) {
    const filters = filtersOf(query.queryKey);
    const data = query.state.data as GalleryData | undefined;
    if (!filters || !data) continue;
    const next = withGeneration(data, generation, matchesGalleryFilters(generation, filters));
    if (next !== data) queryClient.setQueryData(query.queryKey, next);
  }
}

export function removeGeneration(queryClient: QueryClient, id: string): void {
  queryClient.removeQueries({ queryKey: generationQueryOptions(id).queryKey, exact: true });
  for (const query of queryClient.getQueryCache().findAll({ queryKey: generationListRoot })) {
    const data = query.state.data as GalleryData | undefined;
    if (!data || !data.pages.some((page) => page.items.some((item) => item.id === id))) continue;
    queryClient.setQueryData<GalleryData>(query.queryKey, {
      ...data,
      pages: data.pages.map((page) => ({ ...page, items: page.items.filter((item) => item.id !== id) })),
    });
  }
}
