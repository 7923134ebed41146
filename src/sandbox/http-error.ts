import type { ContentfulStatusCode } from "hono/utils/http-status";
import { errorBody, type ErrorCode } from "../api/errors";

/** An error that becomes `{"error":{"code","message"}}` with its status when it reaches the app's error handler. */
export class HttpError extends Error {
  constructor(
    readonly status: ContentfulStatusCode,
    readonly code: ErrorCode,
    message: string,
  ) {
    super(message);
    this.name = "HttpError";
  }

  toBody() {
    return errorBody(this.code, this.message);
  }
}
