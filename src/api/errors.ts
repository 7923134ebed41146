import { z } from "zod";

/** Stable snake_case codes used in every HTTP error body, by the sandbox and the studio server. */
export const errorCodes = [
  // request shape
  "invalid_json",
  "invalid_body",
  "unsupported_media_type",
  "payload_too_large",
  "prompt_required",
  "prompt_too_long",
  "model_required",
  "invalid_field",
  // reference images
  "invalid_image",
  "too_many_images",
  "image_too_large",
  "image_url_invalid",
  "image_fetch_failed",
  // auth and access
  "unauthorized",
  "forbidden",
  // lookup
  "invalid_task_id",
  "task_not_found",
  "not_found",
  "method_not_allowed",
  // task outcomes (also used inside a failed task record)
  "timeout",
  "generation_failed",
  // upstream faults (studio server)
  "upstream_unreachable",
  "upstream_timeout",
  "upstream_error",
  "upstream_bad_response",
  // server
  "rate_limited",
  "internal_error",
] as const;

export const errorCodeSchema = z.enum(errorCodes);
export type ErrorCode = z.infer<typeof errorCodeSchema>;

export const errorBodySchema = z.object({
  error: z.object({
    code: z.string(),
    message: z.string(),
  }),
});
export type ErrorBody = z.infer<typeof errorBodySchema>;

export function errorBody(code: ErrorCode, message: string): ErrorBody {
  return { error: { code, message } };
}

/** HTTP statuses an error body is sent with. */
export type ErrorStatus = 400 | 401 | 403 | 404 | 405 | 409 | 413 | 415 | 421 | 422 | 429 | 500 | 502 | 503 | 504;

/** An error that becomes `{"error":{"code","message"}}` with its status when it reaches an app's error handler. */
export class HttpError extends Error {
  constructor(
    readonly status: ErrorStatus,
    readonly code: ErrorCode,
    message: string,
  ) {
    super(message);
    this.name = "HttpError";
  }

  toBody(): ErrorBody {
    return errorBody(this.code, this.message);
  }
}
