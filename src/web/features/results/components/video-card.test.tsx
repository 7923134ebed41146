import { act, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { Generation } from "../../../../api/studio";
import { useStudioStore } from "../../../stores/studio-store";
import { json, mockApi } from "../../../test/api-mock";
import { makeGeneration } from "../../../test/fixtures";
import { renderWithClient } from "../../../test/render";
import { useVideoCompletionToasts } from "../hooks/use-task-signals";
import { VideoCard } from "./video-card";

function Harness({ id }: { id: string }) {
  useVideoCompletionToasts();
  return (
    <ul>
      <VideoCard id={id} />
    </ul>
  );
}

/** Serves the given states in order, then keeps serving the last one. */
function serveSequence(states: Generation[]) {
  let index = 0;
  return mockApi({
    "GET /api/studio/generations/:id": () => {
      const state = states[Math.min(index, states.length - 1)];
      index += 1;
      return json(state);
    },
  });
}

const detailCalls = (api: ReturnType<typeof mockApi>) => api.calls.filter((call) => call.url.pathname === "/api/studio/generations/vid-7");

describe("VideoCard", () => {
  beforeEach(() => vi.useFakeTimers({ shouldAdvanceTime: true }));
  afterEach(() => vi.useRealTimers());

  it("polls every 5 s through processing and stops once the video succeeded", async () => {
    const base = { id: "vid-7", kind: "video" as const, prompt: "Fog over the pines", createdAt: Date.now() };
    const api = serveSequence([
      makeGeneration({ ...base, status: "pending", completedAt: null }),
      makeGeneration({ ...base, status: "processing", completedAt: null }),
      makeGeneration({ ...base, status: "success", completedAt: Date.now() + 9000 }),
    ]);
    renderWithClient(<Harness id="vid-7" />);

    expect(await screen.findByText("Pending")).toBeInTheDocument();
    expect(detailCalls(api)).toHaveLength(1);

    await act(() => vi.advanceTimersByTimeAsync(5000));
    expect(await screen.findByText("Processing")).toBeInTheDocument();
    expect(detailCalls(api)).toHaveLength(2);

    await act(() => vi.advanceTimersByTimeAsync(5000));
    expect(await screen.findByText("Success")).toBeInTheDocument();
    const video = screen.getByLabelText(/Generated video: Fog over the pines/) as HTMLVideoElement;
    expect(video.tagName).toBe("VIDEO");
    expect(video).toHaveAttribute("src", "/media/vid-7.mp4");
    expect(video).toHaveAttribute("poster", "/media/vid-7.cover.png");
    expect(video).toHaveAttribute("controls");
    expect(screen.getByText("0:09")).toBeInTheDocument();

    // A toast says it is done…
    expect(useStudioStore.getState().toasts.map((toast) => toast.title)).toEqual(["Video ready"]);
    // …and nothing polls any more.
    await act(() => vi.advanceTimersByTimeAsync(30_000));
    expect(detailCalls(api)).toHaveLength(3);
  });

  it("shows the error code and message when the task fails, then stops polling", async () => {
    const base = { id: "vid-7", kind: "video" as const, prompt: "sandbox:fail please", createdAt: Date.now() };
    const api = serveSequence([
      makeGeneration({ ...base, status: "processing", completedAt: null }),
      makeGeneration({
        ...base,
        status: "failed",
        outputs: [],
        error: { code: "timeout", message: "The task timed out." },
      }),
    ]);
    renderWithClient(<Harness id="vid-7" />);
    expect(await screen.findByText("Processing")).toBeInTheDocument();

    await act(() => vi.advanceTimersByTimeAsync(5000));
    expect(await screen.findByText("Failed")).toBeInTheDocument();
    expect(screen.getByText("timeout")).toBeInTheDocument();
    expect(screen.getByText("The task timed out.")).toBeInTheDocument();
    expect(screen.getByText(/took too long to generate/)).toBeInTheDocument();
    expect(useStudioStore.getState().toasts[0]).toMatchObject({ tone: "error", title: "Video failed" });

    await act(() => vi.advanceTimersByTimeAsync(30_000));
    expect(detailCalls(api)).toHaveLength(2);
  });
});
