import type { QueryClient } from "@tanstack/react-query";
import { SessionGate } from "../features/auth/components/session-gate";
import { StudioLayout } from "./layout";
import { Providers } from "./providers";

export function App({ queryClient }: { queryClient?: QueryClient }) {
  return (
    <Providers queryClient={queryClient}>
      <SessionGate>
        <StudioLayout />
      </SessionGate>
    </Providers>
  );
}
