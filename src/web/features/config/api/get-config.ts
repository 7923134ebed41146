import { queryOptions, useQuery } from "@tanstack/react-query";
import { studioConfigSchema, type StudioConfig } from "../../../../api/studio";
import { apiJson } from "../../../lib/api-client";

export function getConfig(signal?: AbortSignal): Promise<StudioConfig> {
  return apiJson(studioConfigSchema, "/api/studio/config", { signal });
}

export const configQueryOptions = () =>
  queryOptions({
    queryKey: ["config"] as const,
    queryFn: ({ signal }) => getConfig(signal),
    staleTime: Infinity,
  });

export function useStudioConfig() {
  return useQuery(configQueryOptions());
}
