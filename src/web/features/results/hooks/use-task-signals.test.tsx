import { act, renderHook, waitFor } from "@testing-library/react";
import type { ReactNode } from "react";
import { QueryClientProvider } from "@tanstack/react-query";
import { describe, expect, it } from "vitest";
import { useStudioStore } from "../../../stores/studio-store";
import { makeGeneration } from "../../../test/fixtures";
import { createTestQueryClient } from "../../../test/render";
import { generationQueryOptions } from "../../generations/api/get-generation";
import { useDocumentTitle } from "./use-task-signals";

describe("useDocumentTitle", () => {
  it("counts running video tasks in the tab title", async () => {
    const queryClient = createTestQueryClient();
    const wrapper = ({ children }: { children: ReactNode }) => <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>;
    queryClient.setQueryData(generationQueryOptions("a").queryKey, makeGeneration({ id: "a", kind: "video", status: "processing" }));
    queryClient.setQueryData(generationQueryOptions("b").queryKey, makeGeneration({ id: "b", kind: "video", status: "pending" }));
    act(() => useStudioStore.getState().trackVideos(["a", "b"]));

    renderHook(() => useDocumentTitle(), { wrapper });
    await waitFor(() => expect(document.title).toBe("(2) Media Studio"));

    act(() => {
      queryClient.setQueryData(generationQueryOptions("a").queryKey, makeGeneration({ id: "a", kind: "video", status: "success" }));
    });
    await waitFor(() => expect(document.title).toBe("(1) Media Studio"));
    act(() => {
      queryClient.setQueryData(generationQueryOptions("b").queryKey, makeGeneration({ id: "b", kind: "video", status: "failed" }));
    });
    await waitFor(() => expect(document.title).toBe("Media Studio"));
  });
});
