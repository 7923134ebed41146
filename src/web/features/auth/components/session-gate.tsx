import { useQueryClient } from "@tanstack/react-query";
import { useEffect, type ReactNode } from "react";
import { Spinner } from "../../../components/ui/spinner";
import { onUnauthorized } from "../../../lib/api-client";
import { SIGNED_OUT, sessionQueryOptions, useSession } from "../api/get-session";
import { SignInScreen } from "./sign-in-screen";

/** Shows sign-in when the server wants a token; any 401 later brings it back. */
export function SessionGate({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const session = useSession();

  useEffect(
    () =>
      onUnauthorized(() => {
        queryClient.setQueryData(sessionQueryOptions().queryKey, SIGNED_OUT);
      }),
    [queryClient],
  );

  if (session.isPending) {
    return (
      <div className="flex min-h-dvh items-center justify-center text-ink-muted">
        <Spinner className="size-5" label="Loading Media Studio" />
      </div>
    );
  }
  // If the session check itself fails, let the studio try; its own calls will report problems.
  const data = session.data;
  if (data && data.required && !data.authenticated) return <SignInScreen />;
  return <>{children}</>;
}
