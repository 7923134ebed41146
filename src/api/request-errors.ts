import type { z } from "zod";
import type { ErrorCode } from "./errors";
import { PROMPT_MAX_LENGTH } from "./provider";

export interface RequestProblem {
  code: ErrorCode;
  message: string;
}

/**
 * Turns a failed parse of a generation request into one readable problem with a stable code.
 * The prompt is judged first, so an over-long prompt always reports `prompt_too_long`.
 */
export function describeRequestProblem(error: z.ZodError, input: Record<string, unknown>): RequestProblem {
  const issues = error.issues;
  const promptIssue = issues.find((issue) => issue.path[0] === "prompt");
  if (promptIssue) {
    if (promptIssue.code === "too_big") {
      return {
        code: "prompt_too_long",
        message: `The prompt is longer than ${PROMPT_MAX_LENGTH} characters. Shorten it and try again.`,
      };
    }
    if (promptIssue.code === "too_small" || input.prompt === undefined) {
      return { code: "prompt_required", message: "A prompt is required." };
    }
    return { code: "invalid_field", message: "The prompt must be text." };
  }
  const modelIssue = issues.find((issue) => issue.path[0] === "model");
  if (modelIssue) {
    if (modelIssue.code === "too_small" || input.model === undefined) {
      return { code: "model_required", message: "A model is required." };
    }
    return { code: "invalid_field", message: "The model must be text." };
  }
  const imageIssue = issues.find((issue) => issue.path[0] === "image");
  if (imageIssue) {
    return { code: "image_url_invalid", message: "Each reference image URL must be an http or https URL." };
  }
  const first = issues[0];
  const field = first ? first.path.join(".") : "body";
  return { code: "invalid_field", message: `${field || "body"}: ${first?.message ?? "invalid value"}` };
}
