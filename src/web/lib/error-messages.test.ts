import { describe, expect, it } from "vitest";
import { ApiError } from "./api-client";
import { describeCode, describeError } from "./error-messages";

describe("describeError", () => {
  it("puts well-known codes in designer words and keeps the server's sentence as detail", () => {
    expect(describeError(new ApiError(502, "upstream_unreachable", "connect ECONNREFUSED"))).toEqual({
      message: "The generation service can't be reached right now. Try again in a moment.",
      detail: "connect ECONNREFUSED",
      code: "upstream_unreachable",
    });
  });

  it("shows the server's own message for prompt_too_long and unknown codes", () => {
    expect(describeCode("prompt_too_long", "prompt must be at most 3000 characters.").message).toBe(
      "prompt must be at most 3000 characters.",
    );
    expect(describeCode("something_new", "A new thing happened.")).toEqual({ message: "A new thing happened.", detail: null, code: "something_new" });
  });

  it("reads a failed task's {code, message}", () => {
    expect(describeError({ code: "timeout", message: "Task timed out." }).detail).toBe("Task timed out.");
  });
});
