import { useMutationState, useQueryClient, type Mutation } from "@tanstack/react-query";
import { useCallback } from "react";
import type { Generation } from "../../../../api/studio";
import { createImageMutationKey, useCreateImage, type ImageRequest } from "../../create/api/create-image";

export interface ImageRun {
  mutationId: number;
  status: "idle" | "pending" | "success" | "error";
  request: ImageRequest;
  generation: Generation | undefined;
  error: unknown;
}

/**
 * The image requests of this session, newest first, straight from react-query's mutation cache:
 * a pending tile per request, replaced by the image or an error.
 */
export function useImageRuns(): ImageRun[] {
  const runs = useMutationState({
    filters: { mutationKey: createImageMutationKey },
    select: (mutation): ImageRun | null => {
      const request = mutation.state.variables as ImageRequest | undefined;
      if (!request) return null;
      return {
        mutationId: mutation.mutationId,
        status: mutation.state.status,
        request,
        generation: mutation.state.data as Generation | undefined,
        error: mutation.state.error,
      };
    },
  });
  return runs.filter((run): run is ImageRun => run !== null).reverse();
}

function findMutation(queryClient: ReturnType<typeof useQueryClient>, mutationId: number): Mutation | undefined {
  return queryClient
    .getMutationCache()
    .findAll({ mutationKey: createImageMutationKey })
    .find((mutation) => mutation.mutationId === mutationId);
}

/** Retry replaces the failed tile with a fresh request; Clear drops finished tiles. */
export function useImageRunActions() {
  const queryClient = useQueryClient();
  const { mutate } = useCreateImage();

  const retry = useCallback(
    (run: ImageRun) => {
      const mutation = findMutation(queryClient, run.mutationId);
      if (mutation) queryClient.getMutationCache().remove(mutation);
      mutate({ ...run.request, requestedAt: Date.now() });
    },
    [mutate, queryClient],
  );

  const dismiss = useCallback(
    (run: ImageRun) => {
      const mutation = findMutation(queryClient, run.mutationId);
      if (mutation && mutation.state.status !== "pending") queryClient.getMutationCache().remove(mutation);
    },
    [queryClient],
  );

  const clearFinished = useCallback(() => {
    const cache = queryClient.getMutationCache();
    for (const mutation of cache.findAll({ mutationKey: createImageMutationKey })) {
      if (mutation.state.status !== "pending") cache.remove(mutation);
    }
  }, [queryClient]);

  return { retry, dismiss, clearFinished };
}
