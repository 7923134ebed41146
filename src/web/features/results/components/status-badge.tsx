import { CircleAlert, CircleCheck, Clock } from "lucide-react";
import type { ComponentProps, ReactNode } from "react";
import type { GenerationStatus } from "../../../../api/studio";
import { Badge } from "../../../components/ui/badge";
import { Spinner } from "../../../components/ui/spinner";

const looks: Record<GenerationStatus, { label: string; tone: ComponentProps<typeof Badge>["tone"]; icon: ReactNode }> = {
  pending: { label: "Pending", tone: "neutral", icon: <Clock aria-hidden /> },
  processing: { label: "Processing", tone: "accent", icon: <Spinner className="size-3" /> },
  success: { label: "Success", tone: "success", icon: <CircleCheck aria-hidden /> },
  failed: { label: "Failed", tone: "danger", icon: <CircleAlert aria-hidden /> },
};

export function StatusBadge({ status }: { status: GenerationStatus }) {
  const { label, tone, icon } = looks[status];
  return (
    <Badge tone={tone} data-status={status}>
      {icon}
      {label}
    </Badge>
  );
}
