import { infiniteQueryOptions, keepPreviousData, queryOptions, useInfiniteQuery, useQuery } from "@tanstack/react-query";
import {
  generationPageSchema,
  type Generation,
  type GenerationKind,
  type GenerationPage,
  type GenerationStatus,
} from "../../../../api/studio";
import { apiJson } from "../../../lib/api-client";

export interface ListParams {
  kind?: GenerationKind;
  status?: GenerationStatus;
  model?: string;
  q?: string;
  favourite?: boolean;
  cursor?: string;
  limit?: number;
}

/** GET /api/studio/generations — one page, newest first. */
export function listGenerations(params: ListParams, signal?: AbortSignal): Promise<GenerationPage> {
  return apiJson(generationPageSchema, "/api/studio/generations", {
    signal,
    query: { ...params, favourite: params.favourite ? "true" : undefined },
  });
}

// ---- The gallery: finished images and videos, infinite by cursor ----

export const GALLERY_PAGE_SIZE = 120;

export interface GalleryFilters {
  kind: GenerationKind | null;
  q: string;
  favourite: boolean;
}

/** Every gallery list lives under this key prefix (cache updates walk all of them). */
export const generationListRoot = ["generations", "list"] as const;

export const galleryQueryOptions = (filters: GalleryFilters) =>
  infiniteQueryOptions({
    queryKey: [...generationListRoot, filters] as const,
    queryFn: ({ pageParam, signal }) =>
      listGenerations(
        {
          status: "success",
          kind: filters.kind ?? undefined,
          q: filters.q || undefined,
          favourite: filters.favourite || undefined,
          cursor: pageParam ?? undefined,
          limit: GALLERY_PAGE_SIZE,
        },
        signal,
      ),
    initialPageParam: null as string | null,
    getNextPageParam: (lastPage) => lastPage.nextCursor,
    staleTime: 60_000,
    // While a new search loads, keep showing the previous results (no flash of skeletons).
    placeholderData: keepPreviousData,
  });

export function useGalleryGenerations(filters: GalleryFilters) {
  return useInfiniteQuery(galleryQueryOptions(filters));
}

/** Whether a generation belongs in a gallery list with these filters (mirrors the server's query). */
export function matchesGalleryFilters(generation: Generation, filters: GalleryFilters): boolean {
  if (generation.status !== "success") return false;
  if (filters.kind && generation.kind !== filters.kind) return false;
  if (filters.favourite && !generation.favourite) return false;
  if (filters.q && !generation.prompt.toLowerCase().includes(filters.q.toLowerCase())) return false;
  return true;
}

// ---- Video tasks still running in the ledger (cards resume from these after a reload) ----

export async function listActiveVideos(signal?: AbortSignal): Promise<Generation[]> {
  const [pending, processing] = await Promise.all([
    listGenerations({ kind: "video", status: "pending", limit: 50 }, signal),
    listGenerations({ kind: "video", status: "processing", limit: 50 }, signal),
  ]);
  return [...pending.items, ...processing.items].sort((a, b) => b.createdAt - a.createdAt);
}

export const activeVideosQueryOptions = () =>
  queryOptions({
    queryKey: ["generations", "active-videos"] as const,
    queryFn: ({ signal }) => listActiveVideos(signal),
    staleTime: Infinity,
  });

export function useActiveVideos() {
  return useQuery(activeVideosQueryOptions());
}
