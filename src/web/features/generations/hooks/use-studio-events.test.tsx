import type { InfiniteData } from "@tanstack/react-query";
import { QueryClientProvider } from "@tanstack/react-query";
import { act, renderHook } from "@testing-library/react";
import type { ReactNode } from "react";
import { beforeEach, describe, expect, it, vi } from "vitest";
import type { GenerationPage } from "../../../../api/studio";
import { useStudioStore } from "../../../stores/studio-store";
import { makeGeneration } from "../../../test/fixtures";
import { createTestQueryClient } from "../../../test/render";
import { generationQueryOptions } from "../api/get-generation";
import { galleryQueryOptions } from "../api/list-generations";
import { useStudioEvents } from "./use-studio-events";

class FakeEventSource extends EventTarget {
  static last: FakeEventSource | null = null;
  closed = false;
  constructor(readonly url: string) {
    super();
    FakeEventSource.last = this;
  }
  emit(type: string, data: unknown) {
    this.dispatchEvent(new MessageEvent(type, { data: JSON.stringify(data) }));
  }
  close() {
    this.closed = true;
  }
}

describe("useStudioEvents", () => {
  beforeEach(() => vi.stubGlobal("EventSource", FakeEventSource));

  it("writes generation and deleted events into the cache and tracks new video tasks", () => {
    const queryClient = createTestQueryClient();
    const filters = { kind: null, q: "", favourite: false };
    queryClient.setQueryData<InfiniteData<GenerationPage, string | null>>(galleryQueryOptions(filters).queryKey, {
      pages: [{ items: [], nextCursor: null }],
      pageParams: [null],
    });
    const wrapper = ({ children }: { children: ReactNode }) => <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>;
    const { unmount } = renderHook(() => useStudioEvents(), { wrapper });
    const source = FakeEventSource.last!;
    expect(source.url).toBe("/api/studio/events");

    const video = makeGeneration({ id: "v1", kind: "video", status: "processing", completedAt: null, outputs: [] });
    act(() => source.emit("generation", video));
    expect(queryClient.getQueryData(generationQueryOptions("v1").queryKey)?.status).toBe("processing");
    expect(useStudioStore.getState().videoCardIds).toEqual(["v1"]);

    const image = makeGeneration({ id: "i1" });
    act(() => source.emit("generation", image));
    const gallery = () => queryClient.getQueryData<InfiniteData<GenerationPage>>(galleryQueryOptions(filters).queryKey);
    expect(gallery()?.pages[0]?.items.map((item) => item.id)).toEqual(["i1"]);

    act(() => source.emit("deleted", { id: "i1" }));
    act(() => source.emit("deleted", { id: "v1" }));
    expect(gallery()?.pages[0]?.items).toEqual([]);
    expect(useStudioStore.getState().videoCardIds).toEqual([]);

    act(() => source.emit("generation", { not: "a generation" }));
    unmount();
    expect(source.closed).toBe(true);
  });
});
