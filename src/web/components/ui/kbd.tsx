import type { ComponentProps } from "react";
import { cn } from "../../lib/utils";

export function Kbd({ className, ...props }: ComponentProps<"kbd">) {
  return (
    <kbd
      className={cn(
        "inline-flex h-5 min-w-5 items-center justify-center rounded border border-line bg-surface-sunken px-1 font-mono text-2xs text-ink-muted",
        className,
      )}
      {...props}
    />
  );
}
