import { useRef, type KeyboardEvent, type ReactNode } from "react";
import { cn } from "../../lib/utils";

export interface TabItem<T extends string> {
  value: T;
  label: ReactNode;
}

interface TabsProps<T extends string> {
  label: string;
  idPrefix: string;
  value: T;
  items: readonly TabItem<T>[];
  onChange: (value: T) => void;
  className?: string;
}

/** WAI-ARIA tabs with a roving tab stop: ←/→/Home/End move and select. Panels use `${idPrefix}-panel-${value}`. */
export function Tabs<T extends string>({ label, idPrefix, value, items, onChange, className }: TabsProps<T>) {
  const refs = useRef(new Map<T, HTMLButtonElement>());

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const index = items.findIndex((item) => item.value === value);
    let next = index;
    if (event.key === "ArrowRight") next = (index + 1) % items.length;
    else if (event.key === "ArrowLeft") next = (index - 1 + items.length) % items.length;
    else if (event.key === "Home") next = 0;
    else if (event.key === "End") next = items.length - 1;
    else return;
    event.preventDefault();
    const target = items[next];
    if (!target) return;
    onChange(target.value);
    refs.current.get(target.value)?.focus();
  };

  return (
    <div
      role="tablist"
      aria-label={label}
      onKeyDown={onKeyDown}
      className={cn("grid auto-cols-fr grid-flow-col gap-1 rounded-control border border-line bg-surface-sunken p-0.5", className)}
    >
      {items.map((item) => {
        const selected = item.value === value;
        return (
          <button
            key={item.value}
            ref={(node) => {
              if (node) refs.current.set(item.value, node);
              else refs.current.delete(item.value);
            }}
            type="button"
            role="tab"
            id={`${idPrefix}-tab-${item.value}`}
            aria-selected={selected}
            aria-controls={`${idPrefix}-panel-${item.value}`}
            tabIndex={selected ? 0 : -1}
            onClick={() => onChange(item.value)}
            className={cn(
              "flex h-8 items-center justify-center gap-1.5 rounded-[0.375rem] text-[13px] font-medium text-ink-muted transition-colors duration-150 hover:text-ink [&_svg]:size-4",
              selected && "bg-surface-raised text-ink shadow-panel",
            )}
          >
            {item.label}
          </button>
        );
      })}
    </div>
  );
}
