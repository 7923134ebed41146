import { useMutation, useQueryClient } from "@tanstack/react-query";
import { generationSchema, type Generation } from "../../../../api/studio";
import { apiJson } from "../../../lib/api-client";
import { useStudioStore } from "../../../stores/studio-store";
import { upsertGeneration } from "../../generations/cache";

export interface FavouriteChange {
  generation: Generation;
  favourite: boolean;
}

/** PUT /api/studio/generations/:id/favourite {favourite} → the updated Generation. */
export function setFavourite({ generation, favourite }: FavouriteChange): Promise<Generation> {
  return apiJson(generationSchema, `/api/studio/generations/${encodeURIComponent(generation.id)}/favourite`, {
    method: "PUT",
    json: { favourite },
  });
}

export function useSetFavourite() {
  const queryClient = useQueryClient();
  const pushToast = useStudioStore((state) => state.pushToast);
  return useMutation({
    mutationFn: setFavourite,
    // Flip the star at once; put it back if the server says no.
    onMutate: ({ generation, favourite }) => {
      upsertGeneration(queryClient, { ...generation, favourite, updatedAt: generation.updatedAt + 1 });
    },
    onSuccess: (updated) => upsertGeneration(queryClient, updated),
    onError: (_error, { generation }) => {
      upsertGeneration(queryClient, { ...generation, updatedAt: generation.updatedAt + 2 });
      pushToast({ tone: "error", title: "Couldn't change the favourite", description: "Try again in a moment." });
    },
  });
}
