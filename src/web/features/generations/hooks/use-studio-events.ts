import { useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { z } from "zod";
import { isTerminalStatus } from "../../../../api/provider";
import { STUDIO_EVENT_DELETED, STUDIO_EVENT_GENERATION, generationSchema } from "../../../../api/studio";
import { useStudioStore } from "../../../stores/studio-store";
import { activeVideosQueryOptions, generationListRoot } from "../api/list-generations";
import { removeGeneration, upsertGeneration } from "../cache";

const deletedEventSchema = z.object({ id: z.string() });

function parseData<S extends z.ZodType>(schema: S, event: Event): z.output<S> | null {
  if (!(event instanceof MessageEvent) || typeof event.data !== "string") return null;
  try {
    const parsed = schema.safeParse(JSON.parse(event.data));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/**
 * Listens to GET /api/studio/events and writes each change into the react-query cache, so cards
 * and the gallery update before the next poll. EventSource reconnects by itself; polling remains
 * the fallback when the stream is down.
 */
export function useStudioEvents(): void {
  const queryClient = useQueryClient();
  const trackVideos = useStudioStore((state) => state.trackVideos);

  useEffect(() => {
    if (typeof EventSource === "undefined") return;
    const source = new EventSource("/api/studio/events");

    const onGeneration = (event: Event) => {
      const generation = parseData(generationSchema, event);
      if (!generation) return;
      upsertGeneration(queryClient, generation);
      // A video started elsewhere (another tab) gets a card too.
      if (generation.kind === "video" && !isTerminalStatus(generation.status)) trackVideos([generation.id]);
    };
    const onDeleted = (event: Event) => {
      const deleted = parseData(deletedEventSchema, event);
      if (!deleted) return;
      removeGeneration(queryClient, deleted.id);
      if (useStudioStore.getState().videoCardIds.includes(deleted.id)) useStudioStore.getState().dismissVideo(deleted.id);
    };
    // After a dropped connection, catch up on what happened meanwhile.
    let dropped = false;
    const onError = () => {
      dropped = true;
    };
    const onOpen = () => {
      if (!dropped) return;
      dropped = false;
      void queryClient.invalidateQueries({ queryKey: activeVideosQueryOptions().queryKey });
      void queryClient.invalidateQueries({ queryKey: generationListRoot });
    };

    source.addEventListener(STUDIO_EVENT_GENERATION, onGeneration);
    source.addEventListener(STUDIO_EVENT_DELETED, onDeleted);
    source.addEventListener("error", onError);
    source.addEventListener("open", onOpen);
    return () => {
      source.removeEventListener(STUDIO_EVENT_GENERATION, onGeneration);
      source.removeEventListener(STUDIO_EVENT_DELETED, onDeleted);
      source.removeEventListener("error", onError);
      source.removeEventListener("open", onOpen);
      source.close();
    };
  }, [queryClient, trackVideos]);
}
