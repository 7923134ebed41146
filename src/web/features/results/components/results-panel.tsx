import { useEffect } from "react";
import { Button } from "../../../components/ui/button";
import { useStudioStore } from "../../../stores/studio-store";
import { useActiveVideos } from "../../generations/api/list-generations";
import { useImageRunActions, useImageRuns } from "../hooks/use-image-runs";
import { ImageTile } from "./image-tile";
import { VideoCard } from "./video-card";

/** This session's work: image tiles as they generate, and a card per video task. */
export function ResultsPanel() {
  const runs = useImageRuns();
  const { retry, dismiss, clearFinished } = useImageRunActions();
  const videoCardIds = useStudioStore((state) => state.videoCardIds);
  const trackVideos = useStudioStore((state) => state.trackVideos);
  const { data: activeVideos } = useActiveVideos();

  // Unfinished videos in the ledger get their cards back after a reload.
  useEffect(() => {
    if (activeVideos && activeVideos.length > 0) trackVideos(activeVideos.map((generation) => generation.id));
  }, [activeVideos, trackVideos]);

  if (runs.length === 0 && videoCardIds.length === 0) return null;
  const finishedImages = runs.filter((run) => run.status === "success" || run.status === "error").length;

  return (
    <section aria-labelledby="results-heading" className="flex flex-col gap-3">
      <div className="flex items-center justify-between">
        <h2 id="results-heading" className="text-sm font-semibold text-ink">
          This session
        </h2>
        {finishedImages > 0 ? (
          <Button size="sm" variant="ghost" onClick={clearFinished}>
            Clear finished images
          </Button>
        ) : null}
      </div>

      {videoCardIds.length > 0 ? (
        <ul aria-label="Video tasks" className="grid grid-cols-1 gap-3 md:grid-cols-2 2xl:grid-cols-3">
          {videoCardIds.map((id) => (
            <VideoCard key={id} id={id} />
          ))}
        </ul>
      ) : null}

      {runs.length > 0 ? (
        <ul aria-label="Image results" className="grid grid-cols-2 items-start gap-2 sm:grid-cols-3 xl:grid-cols-4 2xl:grid-cols-5">
          {runs.map((run) => (
            <ImageTile key={run.mutationId} run={run} onRetry={retry} onDismiss={dismiss} />
          ))}
        </ul>
      ) : null}
    </section>
  );
}
