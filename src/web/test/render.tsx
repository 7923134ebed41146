import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { render, type RenderOptions } from "@testing-library/react";
import userEvent, { type Options as UserEventOptions } from "@testing-library/user-event";
import type { ReactElement } from "react";

export function createTestQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { retry: false, staleTime: Infinity, refetchOnWindowFocus: false },
      mutations: { retry: false },
    },
  });
}

/** Renders with a fresh QueryClient (one per test) and a user-event session. */
export function renderWithClient(
  ui: ReactElement,
  options: RenderOptions & { queryClient?: QueryClient; userOptions?: UserEventOptions } = {},
) {
  const queryClient = options.queryClient ?? createTestQueryClient();
  const user = userEvent.setup(options.userOptions);
  const result = render(<QueryClientProvider client={queryClient}>{ui}</QueryClientProvider>, options);
  return { ...result, queryClient, user };
}
