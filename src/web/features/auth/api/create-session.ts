import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiEmpty } from "../../../lib/api-client";
import { sessionQueryOptions } from "./get-session";

/** POST /api/studio/session {token}: 204 and an HttpOnly cookie, or 401. */
export function createSession(token: string): Promise<void> {
  return apiEmpty("/api/studio/session", { method: "POST", json: { token } });
}

export function useCreateSession() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createSession,
    onSuccess: async () => {
      queryClient.setQueryData(sessionQueryOptions().queryKey, { required: true, authenticated: true });
      // Anything fetched while signed out is stale now.
      await queryClient.invalidateQueries({ predicate: (query) => query.queryKey[0] !== "session" });
    },
  });
}
