import { Film, RotateCcw, X } from "lucide-react";
import { isTerminalStatus } from "../../../../api/provider";
import type { Generation } from "../../../../api/studio";
import { Button } from "../../../components/ui/button";
import { Spinner } from "../../../components/ui/spinner";
import { describeCode, describeError } from "../../../lib/error-messages";
import { formatElapsed } from "../../../lib/format";
import { useNow } from "../../../lib/use-now";
import { useStudioStore } from "../../../stores/studio-store";
import { useLoadIntoForm } from "../../create/hooks/use-load-into-form";
import { useGeneration } from "../../generations/api/get-generation";
import { ErrorNotice } from "./error-notice";
import { StatusBadge } from "./status-badge";

function elapsedOf(generation: Generation, now: number): number {
  return (generation.completedAt ?? now) - generation.createdAt;
}

const steps = ["pending", "processing", "success"] as const;

function Progress({ status }: { status: Generation["status"] }) {
  const reached = steps.indexOf(status as (typeof steps)[number]);
  return (
    <ol className="flex items-center gap-1.5 text-2xs text-ink-faint" aria-hidden>
      {["Queued", "Generating", "Done"].map((step, index) => (
        <li key={step} className="flex items-center gap-1.5">
          <span
            className={
              index < reached
                ? "size-1.5 rounded-full bg-accent"
                : index === reached
                  ? "size-1.5 animate-pulse rounded-full bg-accent"
                  : "size-1.5 rounded-full bg-line-strong"
            }
          />
          <span className={index <= reached ? "text-ink-muted" : undefined}>{step}</span>
        </li>
      ))}
    </ol>
  );
}

/** One video task: polls its ledger entry every 5 s until success or failed. */
export function VideoCard({ id }: { id: string }) {
  const { data: generation, error } = useGeneration(id);
  const dismissVideo = useStudioStore((state) => state.dismissVideo);
  const { reuseSettings } = useLoadIntoForm();
  const running = !generation || !isTerminalStatus(generation.status);
  const now = useNow(running);

  if (!generation) {
    return (
      <li className="flex items-center gap-2 rounded-panel border border-line bg-surface p-3 text-xs text-ink-muted">
        {error ? <ErrorNotice error={describeError(error)} /> : <><Spinner /> Loading video task…</>}
      </li>
    );
  }

  const output = generation.outputs[0];
  const title = generation.prompt.length > 80 ? `${generation.prompt.slice(0, 80)}…` : generation.prompt;

  return (
    <li
      aria-label={`Video: ${title}`}
      data-status={generation.status}
      className="flex min-w-0 flex-col overflow-hidden rounded-panel border border-line bg-surface shadow-panel"
    >
      <div className="relative aspect-video w-full bg-surface-sunken">
        {generation.status === "success" && output ? (
          <video
            controls
            playsInline
            preload="metadata"
            src={output.url}
            poster={output.coverUrl ?? undefined}
            className="size-full bg-black object-contain"
            aria-label={`Generated video: ${title}`}
          />
        ) : generation.status === "failed" ? (
          <div className="flex size-full items-center p-4">
            <ErrorNotice
              error={generation.error ? describeCode(generation.error.code, generation.error.message) : describeError(null)}
            />
          </div>
        ) : (
          <div className="flex size-full animate-shimmer flex-col items-center justify-center gap-3 shimmer">
            <Film aria-hidden className="size-6 text-ink-faint" />
            <Progress status={generation.status} />
          </div>
        )}
      </div>
      <div className="flex flex-col gap-2 p-3">
        <div className="flex items-start justify-between gap-2">
          <p className="line-clamp-2 min-w-0 text-[13px] text-ink" title={generation.prompt}>
            {generation.prompt}
          </p>
          <Button
            variant="ghost"
            size="icon-sm"
            className="-mt-1 -mr-1"
            aria-label={running ? "Hide this card (the task keeps running)" : "Hide this card"}
            onClick={() => dismissVideo(generation.id)}
          >
            <X aria-hidden />
          </Button>
        </div>
        <div className="flex flex-wrap items-center gap-x-2 gap-y-1 text-2xs text-ink-faint">
          <span role="status" aria-live="polite">
            <StatusBadge status={generation.status} />
          </span>
          <span className="font-mono tabular-nums" aria-label={`Elapsed ${formatElapsed(elapsedOf(generation, now))}`}>
            {formatElapsed(elapsedOf(generation, now))}
          </span>
          <span aria-hidden>·</span>
          <span className="truncate font-mono">{generation.model}</span>
          {generation.params.size ? (
            <>
              <span aria-hidden>·</span>
              <span className="font-mono">{generation.params.size}</span>
            </>
          ) : null}
          {generation.status === "failed" ? (
            <Button size="sm" variant="secondary" className="ml-auto" onClick={() => void reuseSettings(generation)}>
              <RotateCcw aria-hidden />
              Reuse settings
            </Button>
          ) : null}
        </div>
      </div>
    </li>
  );
}
