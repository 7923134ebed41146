import { screen, waitFor } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { errorReply, json, mockApi } from "../../../test/api-mock";
import { renderWithClient } from "../../../test/render";
import { useStudioConfig } from "../../config/api/get-config";
import { SessionGate } from "./session-gate";

function Protected() {
  const config = useStudioConfig();
  return <p>{config.isSuccess ? "Studio loaded" : "Loading studio"}</p>;
}

describe("SessionGate", () => {
  it("asks for the token when the server requires one, then shows the studio", async () => {
    let signedIn = false;
    const api = mockApi({
      "GET /api/studio/session": () => json({ required: true, authenticated: signedIn }),
      "POST /api/studio/session": (request) => {
        const { token } = JSON.parse(String(request.body)) as { token: string };
        if (token !== "correct horse battery") return errorReply(401, "unauthorized", "Wrong token.");
        signedIn = true;
        return new Response(null, { status: 204 });
      },
      "GET /api/studio/config": { ok: true },
    });
    const { user } = renderWithClient(
      <SessionGate>
        <p>Studio loaded</p>
      </SessionGate>,
    );

    const field = await screen.findByLabelText("Access token");
    await user.type(field, "nope nope nope");
    await user.click(screen.getByRole("button", { name: "Sign in" }));
    expect(await screen.findByRole("alert")).toHaveTextContent("That token wasn't accepted.");

    await user.clear(field);
    await user.type(field, "correct horse battery{Enter}");
    expect(await screen.findByText("Studio loaded")).toBeInTheDocument();
    const [post] = api.callsTo("POST", "/api/studio/session");
    expect(post?.headers.get("x-studio-request")).toBe("1");
  });

  it("returns to sign-in when any other call answers 401", async () => {
    mockApi({
      "GET /api/studio/session": json({ required: true, authenticated: true }),
      "GET /api/studio/config": errorReply(401, "unauthorized", "Sign in first."),
    });
    renderWithClient(
      <SessionGate>
        <Protected />
      </SessionGate>,
    );
    await waitFor(() => expect(screen.getByLabelText("Access token")).toBeInTheDocument());
    expect(screen.queryByText(/studio/i, { selector: "p" })).not.toBeInTheDocument();
  });

  it("lets the studio through when sign-in is not required", async () => {
    mockApi({ "GET /api/studio/session": { required: false, authenticated: false } });
    renderWithClient(
      <SessionGate>
        <p>Studio loaded</p>
      </SessionGate>,
    );
    expect(await screen.findByText("Studio loaded")).toBeInTheDocument();
  });
});
