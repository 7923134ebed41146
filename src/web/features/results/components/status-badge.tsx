import { CircleAlert, CircleCheck, Clock } from "lucide-react";
import type { GenerationStatus } from "../../../../api/studio";
import { Badge } from "../../../components/ui/badge";
import { Spinner } from "../../../components/ui/spinner";

const labels: Record<GenerationStatus, string> = {
  pending: "Pending",
  processing: "Processing",
  success: "Success",
  failed: "Failed",
};

export function StatusBadge({ status }: { status: GenerationStatus }) {
  switch (status) {
    case "pending":
      return (
        <Badge tone="neutral" data-status={status}>
          <Clock aria-hidden />
          {labels[status]}
        </Badge>
      );
    case "processing":
      return (
        <Badge tone="accent" data-status={status}>
          <Spinner className="size-3" />
          {labels[status]}
        </Badge>
      );
    case "success":
      return (
        <Badge tone="success" data-status={status}>
          <CircleCheck aria-hidden />
          {labels[status]}
        </Badge>
      );
    case "failed":
      return (
        <Badge tone="danger" data-status={status}>
          <CircleAlert aria-hidden />
          {labels[status]}
        </Badge>
      );
  }
}
