import { describe, expect, it } from "vitest";
import { pngFile } from "../test/fixtures";
import { draftImageFromFile, useStudioStore } from "./studio-store";

describe("studio store", () => {
  it("remembers the theme across visits", () => {
    useStudioStore.getState().toggleTheme();
    expect(useStudioStore.getState().theme).toBe("light");
    expect(localStorage.getItem("media-studio:theme")).toBe("light");
    useStudioStore.getState().toggleTheme();
    expect(localStorage.getItem("media-studio:theme")).toBe("dark");
  });

  it("does not touch storage while typing", () => {
    localStorage.clear();
    useStudioStore.getState().setPrompt("a fox");
    expect(localStorage.length).toBe(0);
  });

  it("reorders references within bounds", () => {
    const [a, b, c] = ["a.png", "b.png", "c.png"].map((name) => draftImageFromFile(pngFile(name)));
    const store = useStudioStore.getState();
    store.addReferences([a!, b!, c!]);
    store.moveReference(c!.id, -1);
    store.moveReference(a!.id, -1); // already first: no change
    const names = () => useStudioStore.getState().references.map((image) => (image.source === "file" ? image.file.name : image.url));
    expect(names()).toEqual(["a.png", "c.png", "b.png"]);
    store.moveReference(a!.id, 1);
    expect(names()).toEqual(["c.png", "a.png", "b.png"]);
  });

  it("keeps newly tracked video cards first and never re-adds a dismissed one", () => {
    const store = useStudioStore.getState();
    store.trackVideos(["one"]);
    store.trackVideos(["two", "one"]);
    expect(useStudioStore.getState().videoCardIds).toEqual(["two", "one"]);
    store.dismissVideo("one");
    store.trackVideos(["one"]);
    expect(useStudioStore.getState().videoCardIds).toEqual(["two"]);
  });
});
