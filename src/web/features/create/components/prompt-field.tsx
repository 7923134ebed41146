import { Label, Textarea } from "../../../components/ui/input";
import { cn } from "../../../lib/utils";
import { useStudioStore } from "../../../stores/studio-store";
import { promptTooLongMessage } from "../hooks/use-send-draft";

export const PROMPT_FIELD_ID = "prompt";

const placeholders = {
  image: "Describe the picture — subject, setting, light, lens, mood…",
  video: "Describe the shot — subject, motion, camera move, light…",
} as const;

export function PromptField({ max }: { max: number }) {
  const prompt = useStudioStore((state) => state.prompt);
  const mode = useStudioStore((state) => state.mode);
  const setPrompt = useStudioStore((state) => state.setPrompt);
  const length = prompt.length;
  const over = length > max;
  const near = !over && length > max * 0.9;

  return (
    <div className="flex flex-col gap-1.5">
      <div className="flex items-baseline justify-between">
        <Label htmlFor={PROMPT_FIELD_ID}>Prompt</Label>
        <span
          id="prompt-counter"
          className={cn("font-mono text-2xs tabular-nums text-ink-faint", near && "text-warning", over && "font-semibold text-danger")}
        >
          <span className="sr-only">Prompt length: </span>
          {length} / {max}
        </span>
      </div>
      <Textarea
        id={PROMPT_FIELD_ID}
        name="prompt"
        value={prompt}
        onChange={(event) => setPrompt(event.target.value)}
        placeholder={placeholders[mode]}
        aria-invalid={over || undefined}
        aria-describedby={over ? "prompt-counter prompt-error" : "prompt-counter"}
        spellCheck
        rows={5}
        className="min-h-32"
      />
      {over ? (
        <p id="prompt-error" role="alert" className="text-xs font-medium text-danger">
          {promptTooLongMessage(length, max)}
        </p>
      ) : null}
    </div>
  );
}
