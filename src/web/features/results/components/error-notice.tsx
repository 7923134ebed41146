import { CircleAlert } from "lucide-react";
import type { DescribedError } from "../../../lib/error-messages";
import { cn } from "../../../lib/utils";

/** An error in designer words, with the server's sentence and code underneath. */
export function ErrorNotice({ error, className }: { error: DescribedError; className?: string }) {
  return (
    <div className={cn("flex min-w-0 items-start gap-2 text-xs", className)}>
      <CircleAlert aria-hidden className="mt-0.5 size-4 shrink-0 text-danger" />
      <div className="min-w-0 space-y-1">
        <p className="font-medium text-ink">{error.message}</p>
        {error.detail ? <p className="text-ink-muted">{error.detail}</p> : null}
        {error.code ? (
          <p className="text-2xs text-ink-faint">
            <span className="sr-only">Error code: </span>
            <code className="font-mono">{error.code}</code>
          </p>
        ) : null}
      </div>
    </div>
  );
}
