import { isApiError } from "./api-client";

/** What a designer reads when something goes wrong. */
export interface DescribedError {
  /** Plain words; the friendly version when the code is well known. */
  message: string;
  /** The server's own sentence when it differs from `message` (shown smaller). */
  detail: string | null;
  code: string | null;
}

const friendly: Record<string, string> = {
  upstream_unreachable: "The generation service can't be reached right now. Try again in a moment.",
  upstream_timeout: "The generation service took too long to answer. Try again in a moment.",
  upstream_error: "The generation service ran into a problem with this request. Try again, or adjust the prompt.",
  upstream_bad_response: "The generation service sent back something unexpected. Try again in a moment.",
  rate_limited: "Too many requests at once. Wait a few seconds and try again.",
  internal_error: "The studio server hit an unexpected error. Try again; if it keeps happening, reload the page.",
  network_error: "Can't reach the studio server. Check your connection and try again.",
  bad_response: "The studio server sent a reply the studio doesn't understand. Reload the page and try again.",
  timeout: "The video took too long to generate and was stopped. Try again, perhaps with a simpler prompt.",
  generation_failed: "The service couldn't generate this. Try again, or change the prompt or references.",
  image_fetch_failed: "One of the reference image URLs couldn't be downloaded. Check the link or upload the file instead.",
  image_url_invalid: "One of the reference image URLs isn't a valid http(s) link.",
  invalid_image: "One of the reference images isn't a readable PNG, JPEG, WebP or GIF.",
  image_too_large: "A reference image is too large. Use a smaller file.",
  too_many_images: "Too many reference images for one request. Remove some and try again.",
  payload_too_large: "The upload is too large. Use fewer or smaller reference images.",
  prompt_required: "Write a prompt first.",
  model_required: "Choose a model first.",
  unauthorized: "Your session has ended. Sign in again to continue.",
  forbidden: "The studio refused this request. Reload the page and try again.",
  not_found: "That item no longer exists. It may have been deleted.",
  task_not_found: "The provider no longer knows this task.",
};

/** Turns any thrown value or a task's `{code, message}` into designer-facing words. */
export function describeError(error: unknown): DescribedError {
  if (isApiError(error)) return describeCode(error.code, error.message);
  if (error && typeof error === "object" && "code" in error && "message" in error) {
    const { code, message } = error as { code: unknown; message: unknown };
    if (typeof code === "string" && typeof message === "string") return describeCode(code, message);
  }
  if (error instanceof Error && error.message) return { message: error.message, detail: null, code: null };
  return { message: "Something went wrong. Try again.", detail: null, code: null };
}

export function describeCode(code: string, serverMessage: string): DescribedError {
  // The server's prompt_too_long message already says what to do; show it as it is.
  const mapped = code === "prompt_too_long" ? undefined : friendly[code];
  if (!mapped) return { message: serverMessage || "Something went wrong. Try again.", detail: null, code };
  const detail = serverMessage && serverMessage !== mapped ? serverMessage : null;
  return { message: mapped, detail, code };
}
