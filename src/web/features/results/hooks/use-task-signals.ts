import { useIsMutating, useQueries, useQueryClient, type Query } from "@tanstack/react-query";
import { useEffect } from "react";
import { isTerminalStatus } from "../../../../api/provider";
import type { Generation, GenerationStatus } from "../../../../api/studio";
import { useStudioStore } from "../../../stores/studio-store";
import { createImageMutationKey } from "../../create/api/create-image";
import { generationQueryOptions } from "../../generations/api/get-generation";

const detailPrefix = generationQueryOptions("").queryKey.slice(0, 2);

function isDetailQuery(query: Query): boolean {
  return query.queryKey[0] === detailPrefix[0] && query.queryKey[1] === detailPrefix[1];
}

/** Running tasks: image requests in flight plus video cards not yet finished. */
export function useRunningTaskCount(): number {
  const videoCardIds = useStudioStore((state) => state.videoCardIds);
  const images = useIsMutating({ mutationKey: createImageMutationKey });
  const videos = useQueries({
    // Read-only observers: the cards do the polling.
    queries: videoCardIds.map((id) => ({ ...generationQueryOptions(id), enabled: false })),
    combine: (results) => results.filter((result) => !result.data || !isTerminalStatus(result.data.status)).length,
  });
  return images + videos;
}

/** "(2) Media Studio" while tasks run. */
export function useDocumentTitle(base = "Media Studio"): void {
  const running = useRunningTaskCount();
  useEffect(() => {
    document.title = running > 0 ? `(${running}) ${base}` : base;
  }, [running, base]);
}

/** A toast whenever a video this page watched moves from running to success or failed. */
export function useVideoCompletionToasts(): void {
  const queryClient = useQueryClient();
  const pushToast = useStudioStore((state) => state.pushToast);

  useEffect(() => {
    const cache = queryClient.getQueryCache();
    const seen = new Map<string, GenerationStatus>();
    const observe = (query: Query, announce: boolean) => {
      if (!isDetailQuery(query)) return;
      const generation = query.state.data as Generation | undefined;
      if (!generation || generation.kind !== "video") return;
      const previous = seen.get(generation.id);
      seen.set(generation.id, generation.status);
      if (!announce || !previous || isTerminalStatus(previous) || !isTerminalStatus(generation.status)) return;
      const prompt = generation.prompt.length > 70 ? `${generation.prompt.slice(0, 70)}…` : generation.prompt;
      if (generation.status === "success") {
        pushToast({ tone: "success", title: "Video ready", description: prompt });
      } else {
        pushToast({
          tone: "error",
          title: "Video failed",
          description: generation.error ? `${generation.error.message} (${generation.error.code})` : prompt,
        });
      }
    };
    for (const query of cache.getAll()) observe(query, false);
    return cache.subscribe((event) => {
      if (event.type === "updated" || event.type === "added") observe(event.query, true);
    });
  }, [pushToast, queryClient]);
}
