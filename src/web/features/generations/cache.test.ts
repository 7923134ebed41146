import type { InfiniteData } from "@tanstack/react-query";
import { describe, expect, it } from "vitest";
import type { GenerationPage } from "../../../api/studio";
import { makeGeneration } from "../../test/fixtures";
import { createTestQueryClient } from "../../test/render";
import { galleryQueryOptions } from "./api/list-generations";
import { removeGeneration, upsertGeneration } from "./cache";

type Data = InfiniteData<GenerationPage, string | null>;

function seed(filters = { kind: null, q: "", favourite: false } as Parameters<typeof galleryQueryOptions>[0]) {
  const queryClient = createTestQueryClient();
  const older = makeGeneration({ id: "old", createdAt: 1000, prompt: "an old fox" });
  const newer = makeGeneration({ id: "new", createdAt: 2000, prompt: "a new owl" });
  const key = galleryQueryOptions(filters).queryKey;
  queryClient.setQueryData<Data>(key, { pages: [{ items: [newer, older], nextCursor: null }], pageParams: [null] });
  const ids = () => queryClient.getQueryData<Data>(key)?.pages.flatMap((page) => page.items.map((item) => item.id));
  return { queryClient, ids, older };
}

describe("generation cache updates", () => {
  it("puts a newly finished generation into loaded gallery lists by creation time", () => {
    const { queryClient, ids } = seed();
    upsertGeneration(queryClient, makeGeneration({ id: "newest", createdAt: 3000 }));
    upsertGeneration(queryClient, makeGeneration({ id: "middle", createdAt: 1500 }));
    expect(ids()).toEqual(["newest", "new", "middle", "old"]);
  });

  it("leaves unfinished generations and non-matching filters out", () => {
    const { queryClient, ids } = seed({ kind: "image", q: "owl", favourite: false });
    upsertGeneration(queryClient, makeGeneration({ id: "running", status: "processing", createdAt: 3000 }));
    upsertGeneration(queryClient, makeGeneration({ id: "fox", prompt: "a fox", createdAt: 3000 }));
    upsertGeneration(queryClient, makeGeneration({ id: "owl-video", kind: "video", prompt: "an OWL", createdAt: 3000 }));
    upsertGeneration(queryClient, makeGeneration({ id: "owl", prompt: "Snowy OWL", createdAt: 3000 }));
    expect(ids()).toEqual(["owl", "new", "old"]);
  });

  it("ignores an older copy arriving after a newer one", () => {
    const { queryClient, older } = seed();
    upsertGeneration(queryClient, { ...older, favourite: true, updatedAt: older.updatedAt + 10 });
    upsertGeneration(queryClient, { ...older, favourite: false, updatedAt: older.updatedAt + 5 });
    const key = galleryQueryOptions({ kind: null, q: "", favourite: false }).queryKey;
    const item = queryClient.getQueryData<Data>(key)?.pages[0]?.items.find((entry) => entry.id === "old");
    expect(item?.favourite).toBe(true);
  });

  it("replaces changed items in place and removes deleted ones", () => {
    const { queryClient, ids, older } = seed();
    upsertGeneration(queryClient, { ...older, favourite: true, updatedAt: older.updatedAt + 1 });
    expect(ids()).toEqual(["new", "old"]);
    removeGeneration(queryClient, "new");
    expect(ids()).toEqual(["old"]);
  });
});
