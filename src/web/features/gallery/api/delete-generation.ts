import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiEmpty } from "../../../lib/api-client";
import { removeGeneration } from "../../generations/cache";

/** DELETE /api/studio/generations/:id → 204. */
export function deleteGeneration(id: string): Promise<void> {
  return apiEmpty(`/api/studio/generations/${encodeURIComponent(id)}`, { method: "DELETE" });
}

export function useDeleteGeneration() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteGeneration,
    onSuccess: (_result, id) => removeGeneration(queryClient, id),
  });
}
