import type { ComponentProps } from "react";
import { cn } from "../../lib/utils";

export const fieldClasses =
  "w-full rounded-control border border-line bg-surface-sunken px-2.5 text-[13px] text-ink placeholder:text-ink-faint transition-colors duration-150 hover:border-line-strong focus-visible:border-accent focus-visible:outline-2 focus-visible:outline-offset-0 focus-visible:outline-focus/40 disabled:opacity-50 aria-invalid:border-danger";

export function Input({ className, ...props }: ComponentProps<"input">) {
  return <input className={cn(fieldClasses, "h-8", className)} {...props} />;
}

export function Textarea({ className, ...props }: ComponentProps<"textarea">) {
  return <textarea className={cn(fieldClasses, "min-h-28 resize-y py-2 leading-5", className)} {...props} />;
}

export function Select({ className, ...props }: ComponentProps<"select">) {
  return <select className={cn(fieldClasses, "h-8 cursor-pointer pr-7", className)} {...props} />;
}

export function Label({ className, ...props }: ComponentProps<"label">) {
  return <label className={cn("text-xs font-medium text-ink-muted", className)} {...props} />;
}
