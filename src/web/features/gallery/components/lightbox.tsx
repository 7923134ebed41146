import { useQuery } from "@tanstack/react-query";
import {
  ChevronLeft,
  ChevronRight,
  Copy,
  Download,
  Film,
  Image as ImageIcon,
  Repeat2,
  Star,
  Trash2,
  X,
} from "lucide-react";
import { useEffect, useLayoutEffect, useRef, useState, type KeyboardEvent, type ReactNode } from "react";
import { createPortal } from "react-dom";
import type { Generation } from "../../../../api/studio";
import { Button, buttonVariants } from "../../../components/ui/button";
import { Spinner } from "../../../components/ui/spinner";
import { copyText } from "../../../lib/clipboard";
import { describeError } from "../../../lib/error-messages";
import { formatBytes, formatDateTime, formatDuration } from "../../../lib/format";
import { SHELL_ID } from "../../../lib/shell";
import { cn } from "../../../lib/utils";
import { useStudioStore } from "../../../stores/studio-store";
import { useLoadIntoForm } from "../../create/hooks/use-load-into-form";
import { generationQueryOptions } from "../../generations/api/get-generation";
import { ErrorNotice } from "../../results/components/error-notice";
import { useDeleteGeneration } from "../api/delete-generation";
import { useSetFavourite } from "../api/set-favourite";


const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled]), video[controls], [tabindex]:not([tabindex="-1"])';

interface LightboxProps {
  id: string;
  openerId: string;
  items: readonly Generation[];
  hasNextPage: boolean;
  fetchNextPage: () => Promise<unknown>;
  /** Brings the opener tile back into the DOM when virtualisation dropped it. */
  revealTile: (id: string) => void;
}

function fileName(generation: Generation): string {
  const ext = generation.outputs[0]?.mime.split("/")[1]?.replace("jpeg", "jpg") ?? (generation.kind === "video" ? "mp4" : "png");
  const slug = generation.prompt
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "")
    .slice(0, 40);
  return `${slug || generation.kind}-${generation.id}.${ext}`;
}

function Detail({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex justify-between gap-3 py-1.5">
      <dt className="text-ink-faint">{label}</dt>
      <dd className="min-w-0 truncate text-right font-mono text-ink">{children}</dd>
    </div>
  );
}

export function Lightbox({ id, openerId, items, hasNextPage, fetchNextPage, revealTile }: LightboxProps) {
  const closeLightbox = useStudioStore((state) => state.closeLightbox);
  const showInLightbox = useStudioStore((state) => state.showInLightbox);
  const pushToast = useStudioStore((state) => state.pushToast);
  const dialogRef = useRef<HTMLDivElement>(null);
  const returnFocusTo = useRef<Element | null>(null);
  // Both are tied to the item shown, so stepping to another item resets them.
  const [confirmDeleteFor, setConfirmDeleteFor] = useState<string | null>(null);
  const [waitingFrom, setWaitingFrom] = useState<string | null>(null);
  const confirmDelete = confirmDeleteFor === id;
  const waitingForNext = waitingFrom === id;
  const { reuseSettings, addAsReference } = useLoadIntoForm();
  const favourite = useSetFavourite();
  const remove = useDeleteGeneration();

  const index = items.findIndex((item) => item.id === id);
  const fromList = index >= 0 ? items[index] : undefined;
  const detail = useQuery({ ...generationQueryOptions(id), enabled: !fromList });
  const generation = fromList ?? detail.data;
  const previous = index > 0 ? items[index - 1] : undefined;
  const next = index >= 0 ? items[index + 1] : undefined;
  const canGoNext = Boolean(next) || (index >= 0 && hasNextPage);

  // Remember who opened us, make the rest of the page inert, and put focus inside.
  useLayoutEffect(() => {
    returnFocusTo.current = document.activeElement;
    const shell = document.getElementById(SHELL_ID);
    shell?.setAttribute("inert", "");
    const scrollbar = window.innerWidth - document.documentElement.clientWidth;
    const { overflow, paddingRight } = document.body.style;
    document.body.style.overflow = "hidden";
    if (scrollbar > 0) document.body.style.paddingRight = `${scrollbar}px`;
    dialogRef.current?.focus();
    return () => {
      shell?.removeAttribute("inert");
      document.body.style.overflow = overflow;
      document.body.style.paddingRight = paddingRight;
      const target = returnFocusTo.current;
      if (target instanceof HTMLElement && target.isConnected) {
        target.focus({ preventScroll: true });
      } else {
        revealTile(openerId);
      }
    };
    // Only on open and close: stepping between items keeps the same opener.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  // After asking for the next page, step as soon as it arrives.
  useEffect(() => {
    if (waitingForNext && next) showInLightbox(next.id);
  }, [next, showInLightbox, waitingForNext]);

  const goPrevious = () => {
    if (previous) showInLightbox(previous.id);
  };
  const goNext = () => {
    if (next) showInLightbox(next.id);
    else if (index >= 0 && hasNextPage) {
      setWaitingFrom(id);
      void fetchNextPage();
    }
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const target = event.target as HTMLElement;
    if (event.key === "Escape") {
      event.preventDefault();
      closeLightbox();
      return;
    }
    const inField = target.tagName === "INPUT" || target.tagName === "TEXTAREA" || target.tagName === "VIDEO";
    if (event.key === "ArrowLeft" && !inField) {
      event.preventDefault();
      goPrevious();
    } else if (event.key === "ArrowRight" && !inField) {
      event.preventDefault();
      goNext();
    } else if (event.key === "Tab") {
      const focusables = [...(dialogRef.current?.querySelectorAll<HTMLElement>(FOCUSABLE) ?? [])];
      const first = focusables[0];
      const last = focusables.at(-1);
      if (!first || !last) return;
      if (event.shiftKey && (document.activeElement === first || document.activeElement === dialogRef.current)) {
        event.preventDefault();
        last.focus();
      } else if (!event.shiftKey && document.activeElement === last) {
        event.preventDefault();
        first.focus();
      }
    }
  };

  const onDelete = () => {
    if (!generation) return;
    if (!confirmDelete) {
      setConfirmDeleteFor(id);
      return;
    }
    const after = next ?? previous;
    remove.mutate(generation.id, {
      onSuccess: () => {
        pushToast({ tone: "info", title: "Deleted" });
        if (after) showInLightbox(after.id);
        else closeLightbox();
      },
      onError: (error) => pushToast({ tone: "error", title: "Couldn't delete", description: describeError(error).message }),
    });
  };

  const onCopy = async () => {
    if (!generation) return;
    const ok = await copyText(generation.prompt);
    pushToast(ok ? { tone: "success", title: "Prompt copied" } : { tone: "error", title: "Couldn't copy the prompt" });
  };

  const onReuse = async () => {
    if (!generation) return;
    if (await reuseSettings(generation)) closeLightbox();
  };

  const output = generation?.outputs[0];
  const still =
    generation && output
      ? generation.kind === "image"
        ? { url: output.url, mime: output.mime, name: `image-${generation.id}` }
        : output.coverUrl
          ? { url: output.coverUrl, mime: "image/png", name: `cover-${generation.id}` }
          : null
      : null;

  const onUseAs = async (target: "references" | "first" | "last") => {
    if (!still) return;
    if (await addAsReference(still, target)) closeLightbox();
  };

  const kindLabel = generation?.kind === "video" ? "Video" : "Image";
  const position = index >= 0 ? `${index + 1} of ${items.length}${hasNextPage ? "+" : ""}` : null;

  return createPortal(
    <div
      ref={dialogRef}
      role="dialog"
      aria-modal="true"
      aria-labelledby="lightbox-title"
      tabIndex={-1}
      onKeyDown={onKeyDown}
      className="fixed inset-0 z-40 flex animate-fade-in flex-col bg-canvas/95 backdrop-blur-md focus:outline-none lg:flex-row"
    >
      <div className="relative flex min-h-0 flex-1 items-center justify-center bg-surface-sunken/80 p-3 sm:p-6">
        {generation && output ? (
          generation.kind === "video" ? (
            <video
              key={generation.id}
              src={output.url}
              poster={output.coverUrl ?? undefined}
              controls
              playsInline
              preload="metadata"
              className="max-h-full max-w-full rounded-control bg-black shadow-pop"
              aria-label={`Video: ${generation.prompt}`}
            />
          ) : (
            <img
              key={generation.id}
              src={output.url}
              alt={generation.prompt}
              className="max-h-full max-w-full rounded-control object-contain shadow-pop"
            />
          )
        ) : detail.isError ? (
          <ErrorNotice error={describeError(detail.error)} />
        ) : (
          <Spinner className="size-6 text-ink-muted" label="Loading" />
        )}

        <Button
          variant="overlay"
          size="icon"
          className="absolute top-3 right-3 rounded-full lg:hidden"
          aria-label="Close"
          onClick={closeLightbox}
        >
          <X aria-hidden />
        </Button>
        <Button
          variant="overlay"
          size="icon"
          className="absolute top-1/2 left-2 -translate-y-1/2 rounded-full sm:left-4"
          aria-label="Previous item"
          aria-keyshortcuts="ArrowLeft"
          disabled={!previous}
          onClick={goPrevious}
        >
          <ChevronLeft aria-hidden />
        </Button>
        <Button
          variant="overlay"
          size="icon"
          className="absolute top-1/2 right-2 -translate-y-1/2 rounded-full sm:right-4"
          aria-label="Next item"
          aria-keyshortcuts="ArrowRight"
          disabled={!canGoNext}
          onClick={goNext}
        >
          {waitingForNext ? <Spinner /> : <ChevronRight aria-hidden />}
        </Button>
        {position ? (
          <span className="absolute bottom-3 left-1/2 -translate-x-1/2 rounded-full bg-black/60 px-2.5 py-0.5 font-mono text-2xs text-white tabular-nums">
            {position}
          </span>
        ) : null}
      </div>

      <aside className="flex max-h-[48dvh] w-full shrink-0 flex-col border-t border-line bg-surface lg:max-h-none lg:w-[22rem] lg:border-t-0 lg:border-l">
        <header className="flex items-center justify-between gap-2 border-b border-line px-4 py-3">
          <div className="flex min-w-0 items-center gap-2">
            {generation?.kind === "video" ? <Film aria-hidden className="size-4 text-ink-muted" /> : <ImageIcon aria-hidden className="size-4 text-ink-muted" />}
            <h2 id="lightbox-title" className="truncate text-sm font-semibold">
              {kindLabel}
              {generation ? <span className="ml-2 font-normal text-ink-faint">{formatDateTime(generation.createdAt)}</span> : null}
            </h2>
          </div>
          <Button variant="ghost" size="icon" className="max-lg:hidden" aria-label="Close" aria-keyshortcuts="Escape" onClick={closeLightbox}>
            <X aria-hidden />
          </Button>
        </header>

        {generation ? (
          <div className="flex min-h-0 flex-1 flex-col gap-4 overflow-y-auto px-4 py-3">
            <section aria-labelledby="lightbox-prompt" className="flex flex-col gap-1.5">
              <div className="flex items-center justify-between">
                <h3 id="lightbox-prompt" className="text-xs font-medium text-ink-muted">
                  Prompt
                </h3>
                <Button size="sm" variant="ghost" onClick={() => void onCopy()}>
                  <Copy aria-hidden />
                  Copy prompt
                </Button>
              </div>
              <p className="text-[13px] leading-relaxed break-words whitespace-pre-wrap text-ink">{generation.prompt}</p>
            </section>

            <dl className="divide-y divide-line text-xs">
              <Detail label="Model">{generation.model}</Detail>
              {generation.params.aspect_ratio ? <Detail label="Aspect ratio">{generation.params.aspect_ratio}</Detail> : null}
              {generation.params.size ? <Detail label="Size">{generation.params.size}</Detail> : null}
              {output?.width && output.height ? (
                <Detail label="Dimensions">
                  {output.width} × {output.height}
                </Detail>
              ) : null}
              {generation.completedAt ? <Detail label="Took">{formatDuration(generation.completedAt - generation.createdAt)}</Detail> : null}
            </dl>

            {generation.references.length > 0 ? (
              <section aria-labelledby="lightbox-references" className="flex flex-col gap-1.5">
                <h3 id="lightbox-references" className="text-xs font-medium text-ink-muted">
                  Reference images
                </h3>
                <ul className="grid grid-cols-4 gap-1.5">
                  {generation.references.map((reference, position) => (
                    <li key={reference.id} className="aspect-square overflow-hidden rounded-control border border-line checkerboard">
                      <img
                        src={reference.url}
                        alt={`Reference ${position + 1}: ${reference.name} (${formatBytes(reference.bytes)})`}
                        className="size-full object-cover"
                        loading="lazy"
                      />
                    </li>
                  ))}
                </ul>
              </section>
            ) : null}

            <div className="mt-auto flex flex-col gap-2 border-t border-line pt-3">
              <div className="grid grid-cols-2 gap-1.5">
                <Button
                  aria-pressed={generation.favourite}
                  onClick={() => favourite.mutate({ generation, favourite: !generation.favourite })}
                >
                  <Star aria-hidden className={cn(generation.favourite && "fill-amber-400 text-amber-400")} />
                  {generation.favourite ? "Favourite" : "Add to favourites"}
                </Button>
                {output ? (
                  <a href={output.url} download={fileName(generation)} className={buttonVariants({ variant: "secondary" })}>
                    <Download aria-hidden />
                    Download
                  </a>
                ) : null}
                <Button onClick={() => void onReuse()} className="col-span-2" variant="primary">
                  <Repeat2 aria-hidden />
                  Reuse settings
                </Button>
              </div>

              {still ? (
                <div role="group" aria-labelledby="use-as-label" className="flex flex-col gap-1.5">
                  <span id="use-as-label" className="text-xs font-medium text-ink-muted">
                    {generation.kind === "video" ? "Use the cover as reference" : "Use as reference"}
                  </span>
                  <div className="grid grid-cols-3 gap-1.5">
                    <Button size="sm" onClick={() => void onUseAs("references")} aria-label="Use as reference image">
                      Reference
                    </Button>
                    <Button size="sm" onClick={() => void onUseAs("first")} aria-label="Use as first frame">
                      First frame
                    </Button>
                    <Button size="sm" onClick={() => void onUseAs("last")} aria-label="Use as last frame">
                      Last frame
                    </Button>
                  </div>
                </div>
              ) : null}

              <Button variant="danger" onClick={onDelete} disabled={remove.isPending}>
                <Trash2 aria-hidden />
                {remove.isPending ? "Deleting…" : confirmDelete ? "Click again to delete" : "Delete"}
              </Button>
            </div>
          </div>
        ) : null}
      </aside>
    </div>,
    document.body,
  );
}
