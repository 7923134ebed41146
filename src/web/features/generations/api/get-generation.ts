import { queryOptions, useQuery } from "@tanstack/react-query";
import { POLL_INTERVAL_MS, isTerminalStatus } from "../../../../api/provider";
import { generationSchema, type Generation } from "../../../../api/studio";
import { apiJson } from "../../../lib/api-client";

export function getGeneration(id: string, signal?: AbortSignal): Promise<Generation> {
  return apiJson(generationSchema, `/api/studio/generations/${encodeURIComponent(id)}`, { signal });
}

/**
 * One generation from the ledger. Polls every 5 s (the provider's recommended interval) until the
 * status is success or failed; server-sent events usually update the cache sooner.
 */
export const generationQueryOptions = (id: string) =>
  queryOptions({
    queryKey: ["generations", "detail", id] as const,
    queryFn: ({ signal }) => getGeneration(id, signal),
    staleTime: 0,
    refetchInterval: (query) => {
      const status = query.state.data?.status;
      return status && isTerminalStatus(status) ? false : POLL_INTERVAL_MS;
    },
    refetchIntervalInBackground: true,
  });

export function useGeneration(id: string) {
  return useQuery(generationQueryOptions(id));
}
