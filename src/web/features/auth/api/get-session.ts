import { queryOptions, useQuery } from "@tanstack/react-query";
import { sessionSchema, type Session } from "../../../../api/studio";
import { apiJson, isApiError } from "../../../lib/api-client";

export const SIGNED_OUT: Session = { required: true, authenticated: false };

export async function getSession(signal?: AbortSignal): Promise<Session> {
  try {
    return await apiJson(sessionSchema, "/api/studio/session", { signal });
  } catch (error) {
    // A server without sign-in has no session route: treat it as open.
    if (isApiError(error) && error.status === 404) return { required: false, authenticated: true };
    if (isApiError(error) && error.status === 401) return SIGNED_OUT;
    throw error;
  }
}

export const sessionQueryOptions = () =>
  queryOptions({
    queryKey: ["session"] as const,
    queryFn: ({ signal }) => getSession(signal),
    staleTime: Infinity,
  });

export function useSession() {
  return useQuery(sessionQueryOptions());
}
