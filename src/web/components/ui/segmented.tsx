import type { ReactNode } from "react";
import { cn } from "../../lib/utils";

export interface SegmentedOption<T extends string> {
  value: T;
  label: ReactNode;
  /** Accessible name when `label` is not plain text. */
  ariaLabel?: string;
}

interface SegmentedProps<T extends string> {
  name: string;
  legend: string;
  /** Hide the legend visually (it stays for screen readers). */
  hideLegend?: boolean;
  value: T;
  options: readonly SegmentedOption<T>[];
  onChange: (value: T) => void;
  className?: string;
  listClassName?: string;
  itemClassName?: string;
}

/** A radio group drawn as a segmented control: arrow keys move between options, as radios do. */
export function Segmented<T extends string>({
  name,
  legend,
  hideLegend,
  value,
  options,
  onChange,
  className,
  listClassName,
  itemClassName,
}: SegmentedProps<T>) {
  return (
    <fieldset className={cn("min-w-0", className)}>
      <legend className={cn("mb-1.5 text-xs font-medium text-ink-muted", hideLegend && "sr-only")}>{legend}</legend>
      <div className={cn("flex flex-wrap gap-0.5 rounded-control border border-line bg-surface-sunken p-0.5", listClassName)}>
        {options.map((option) => (
          <label key={option.value} className={cn("relative min-w-0 flex-1", itemClassName)}>
            <input
              type="radio"
              name={name}
              value={option.value}
              checked={value === option.value}
              onChange={() => onChange(option.value)}
              aria-label={option.ariaLabel}
              className="peer absolute inset-0 z-10 m-0 size-full cursor-pointer appearance-none opacity-0"
            />
            <span className="flex h-7 cursor-pointer items-center justify-center gap-1.5 rounded-[0.375rem] px-2 text-xs font-medium whitespace-nowrap text-ink-muted transition-colors duration-150 peer-checked:bg-surface-raised peer-checked:text-ink peer-checked:shadow-panel peer-focus-visible:outline-2 peer-focus-visible:outline-offset-1 peer-focus-visible:outline-focus hover:text-ink">
              {option.label}
            </span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}
