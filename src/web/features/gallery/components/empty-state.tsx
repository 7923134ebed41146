import { ImagePlus, Keyboard, PenLine, SearchX, Sparkles } from "lucide-react";
import { Button } from "../../../components/ui/button";
import { Kbd } from "../../../components/ui/kbd";
import { useStudioStore } from "../../../stores/studio-store";
import { PROMPT_FIELD_ID } from "../../create/components/prompt-field";

const examples = [
  "A ceramic teapot on rough linen, soft window light, 50mm, muted sage palette",
  "Isometric tiny greenhouse full of cacti, pastel clay render, studio lighting",
  "Slow dolly shot through a foggy pine forest at dawn, cinematic, volumetric light",
];

/** First run: what to do, in three steps, with prompts to start from. */
export function FirstRunEmptyState() {
  const setPrompt = useStudioStore((state) => state.setPrompt);
  const setMode = useStudioStore((state) => state.setMode);

  const start = (prompt: string, index: number) => {
    setMode(index === 2 ? "video" : "image");
    setPrompt(prompt);
    document.getElementById(PROMPT_FIELD_ID)?.focus();
  };

  return (
    <div className="flex flex-col items-center gap-6 rounded-panel border border-dashed border-line-strong px-6 py-12 text-center">
      <div className="flex size-12 items-center justify-center rounded-full bg-accent-soft text-accent">
        <Sparkles aria-hidden className="size-5" />
      </div>
      <div className="max-w-md space-y-1.5">
        <h3 className="text-base font-semibold text-ink">Nothing here yet</h3>
        <p className="text-ink-muted">Everything you generate lands in this gallery, newest first.</p>
      </div>
      <ol className="grid w-full max-w-2xl gap-2 text-left sm:grid-cols-3">
        <li className="flex gap-2.5 rounded-control bg-surface p-3">
          <PenLine aria-hidden className="mt-0.5 size-4 shrink-0 text-accent" />
          <span>
            <span className="block font-medium text-ink">Write a prompt</span>
            <span className="text-xs text-ink-muted">Subject, setting, light, lens.</span>
          </span>
        </li>
        <li className="flex gap-2.5 rounded-control bg-surface p-3">
          <ImagePlus aria-hidden className="mt-0.5 size-4 shrink-0 text-accent" />
          <span>
            <span className="block font-medium text-ink">Add references</span>
            <span className="text-xs text-ink-muted">Drop, paste or browse images — optional.</span>
          </span>
        </li>
        <li className="flex gap-2.5 rounded-control bg-surface p-3">
          <Keyboard aria-hidden className="mt-0.5 size-4 shrink-0 text-accent" />
          <span>
            <span className="block font-medium text-ink">Generate</span>
            <span className="text-xs text-ink-muted">
              Press <Kbd>Ctrl</Kbd> <Kbd>Enter</Kbd> to send.
            </span>
          </span>
        </li>
      </ol>
      <div className="flex w-full max-w-2xl flex-col gap-2">
        <p className="text-xs font-medium text-ink-muted">Or start from one of these</p>
        <ul className="flex flex-col gap-1.5">
          {examples.map((example, index) => (
            <li key={example}>
              <Button variant="ghost" className="h-auto w-full items-start justify-start py-2 text-left whitespace-normal" onClick={() => start(example, index)}>
                <span className="mt-px w-11 shrink-0 rounded bg-surface-sunken px-1.5 py-0.5 text-center text-2xs font-medium text-ink-faint">{index === 2 ? "Video" : "Image"}</span>
                <span className="text-ink">{example}</span>
              </Button>
            </li>
          ))}
        </ul>
      </div>
    </div>
  );
}

export function NoMatchesEmptyState({ query }: { query: string }) {
  const setSearch = useStudioStore((state) => state.setGallerySearch);
  const setKind = useStudioStore((state) => state.setGalleryKind);
  const setFavourites = useStudioStore((state) => state.setGalleryFavourites);
  return (
    <div className="flex flex-col items-center gap-3 rounded-panel border border-dashed border-line px-6 py-10 text-center">
      <SearchX aria-hidden className="size-6 text-ink-faint" />
      <p className="text-ink-muted">{query ? `Nothing matches “${query}”.` : "Nothing matches these filters."}</p>
      <Button
        size="sm"
        onClick={() => {
          setSearch("");
          setKind("all");
          setFavourites(false);
        }}
      >
        Clear filters
      </Button>
    </div>
  );
}
