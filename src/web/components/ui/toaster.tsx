import { CircleAlert, CircleCheck, Info, X } from "lucide-react";
import { useEffect } from "react";
import { cn } from "../../lib/utils";
import { useStudioStore, type Toast } from "../../stores/studio-store";

const icons = { info: Info, success: CircleCheck, error: CircleAlert } as const;

function ToastItem({ toast }: { toast: Toast }) {
  const dismissToast = useStudioStore((state) => state.dismissToast);
  useEffect(() => {
    const timer = window.setTimeout(() => dismissToast(toast.id), toast.tone === "error" ? 9000 : 5000);
    return () => window.clearTimeout(timer);
  }, [dismissToast, toast.id, toast.tone]);
  const Icon = icons[toast.tone];
  return (
    <li
      className="pointer-events-auto flex w-full animate-toast-in items-start gap-2.5 rounded-panel border border-line bg-surface-raised p-3 shadow-pop"
      data-tone={toast.tone}
    >
      <Icon
        aria-hidden
        className={cn(
          "mt-0.5 size-4 shrink-0",
          toast.tone === "success" && "text-success",
          toast.tone === "error" && "text-danger",
          toast.tone === "info" && "text-accent",
        )}
      />
      <div className="min-w-0 flex-1">
        <p className="font-medium text-ink">{toast.title}</p>
        {toast.description ? <p className="mt-0.5 line-clamp-3 text-xs text-ink-muted">{toast.description}</p> : null}
      </div>
      <button
        type="button"
        onClick={() => dismissToast(toast.id)}
        className="-m-1 rounded p-1 text-ink-faint hover:text-ink focus-visible:outline-2 focus-visible:outline-focus"
        aria-label="Dismiss notification"
      >
        <X aria-hidden className="size-3.5" />
      </button>
    </li>
  );
}

/** Notifications, announced politely to screen readers. */
export function Toaster() {
  const toasts = useStudioStore((state) => state.toasts);
  return (
    <section aria-label="Notifications" className="pointer-events-none fixed inset-x-3 bottom-3 z-50 sm:left-1/2 sm:w-96 sm:-translate-x-1/2">
      <ol role="status" aria-live="polite" className="flex flex-col gap-2">
        {toasts.map((toast) => (
          <ToastItem key={toast.id} toast={toast} />
        ))}
      </ol>
    </section>
  );
}
