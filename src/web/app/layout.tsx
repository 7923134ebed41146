import { RotateCcw } from "lucide-react";
import { Badge } from "../components/ui/badge";
import { Button } from "../components/ui/button";
import { Spinner } from "../components/ui/spinner";
import { Toaster } from "../components/ui/toaster";
import { useStudioConfig } from "../features/config/api/get-config";
import { CreatePanel } from "../features/create/components/create-panel";
import { Gallery } from "../features/gallery/components/gallery";
import { useStudioEvents } from "../features/generations/hooks/use-studio-events";
import { ErrorNotice } from "../features/results/components/error-notice";
import { ResultsPanel } from "../features/results/components/results-panel";
import { useDocumentTitle, useRunningTaskCount, useVideoCompletionToasts } from "../features/results/hooks/use-task-signals";
import { describeError } from "../lib/error-messages";
import { SHELL_ID } from "../lib/shell";
import { ThemeToggle } from "./theme";

function Logo() {
  return (
    <svg viewBox="0 0 32 32" aria-hidden className="size-6">
      <rect width="32" height="32" rx="8" className="fill-surface-raised" />
      <rect x="6" y="8" width="14" height="14" rx="3" fill="none" className="stroke-accent" strokeWidth="2" />
      <path d="M13 24h11a2 2 0 0 0 2-2V11" fill="none" className="stroke-ink" strokeWidth="2" strokeLinecap="round" />
      <circle cx="11" cy="13" r="1.8" className="fill-accent" />
    </svg>
  );
}

function RunningIndicator() {
  const running = useRunningTaskCount();
  if (running === 0) return null;
  return (
    <Badge tone="accent" className="h-6">
      <Spinner className="size-3" />
      {running} running
    </Badge>
  );
}

function CreateColumn() {
  const config = useStudioConfig();
  if (config.data) return <CreatePanel config={config.data} />;
  if (config.isError) {
    return (
      <div className="flex flex-col items-start gap-3 rounded-panel border border-line bg-surface p-4">
        <ErrorNotice error={describeError(config.error)} />
        <Button size="sm" onClick={() => void config.refetch()}>
          <RotateCcw aria-hidden /> Try again
        </Button>
      </div>
    );
  }
  return (
    <div aria-busy="true" aria-label="Loading the create form" className="flex flex-col gap-4 rounded-panel border border-line bg-surface p-4">
      <div className="h-9 animate-shimmer rounded-control shimmer" />
      <div className="h-36 animate-shimmer rounded-control shimmer" />
      <div className="h-8 animate-shimmer rounded-control shimmer" />
      <div className="h-16 animate-shimmer rounded-control shimmer" />
    </div>
  );
}

/** The studio: create on the left (top on phones), this session's work and the gallery on the right. */
export function StudioLayout() {
  useStudioEvents();
  useDocumentTitle();
  useVideoCompletionToasts();
  const { data: config } = useStudioConfig();

  return (
    <>
      <div id={SHELL_ID} className="min-h-dvh">
        <a
          href="#gallery-heading"
          className="sr-only z-50 rounded-control bg-accent px-3 py-2 text-accent-ink focus:not-sr-only focus:fixed focus:top-2 focus:left-2"
        >
          Skip to gallery
        </a>
        <header className="sticky top-0 z-30 border-b border-line bg-canvas/85 backdrop-blur-md">
          <div className="mx-auto flex h-12 max-w-[1680px] items-center gap-2.5 px-3 sm:px-5">
            <Logo />
            <h1 className="text-sm font-semibold tracking-tight">Media Studio</h1>
            {config?.sandbox ? (
              <Badge tone="warning" title="Running against the built-in sandbox provider">
                Sandbox
              </Badge>
            ) : null}
            <div className="ml-auto flex items-center gap-1.5">
              <RunningIndicator />
              <ThemeToggle />
            </div>
          </div>
        </header>
        <main className="mx-auto grid max-w-[1680px] grid-cols-1 gap-6 px-3 pb-16 sm:px-5 lg:grid-cols-[22.5rem_minmax(0,1fr)] lg:gap-8">
          <div className="pt-4 lg:sticky lg:top-12 lg:max-h-[calc(100dvh-3rem)] lg:self-start lg:overflow-y-auto lg:pb-6 lg:[scrollbar-width:thin]">
            <CreateColumn />
          </div>
          <div className="flex min-w-0 flex-col gap-8 lg:pt-4">
            <ResultsPanel />
            <Gallery />
          </div>
        </main>
      </div>
      <Toaster />
    </>
  );
}
