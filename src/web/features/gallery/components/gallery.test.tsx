import { screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { json, mockApi } from "../../../test/api-mock";
import { makeGeneration } from "../../../test/fixtures";
import { renderWithClient } from "../../../test/render";
import { Gallery } from "./gallery";

const items = [
  makeGeneration({ id: "g3", prompt: "Third: a red kite over dunes", createdAt: 3000 }),
  makeGeneration({ id: "g2", prompt: "Second: paper boats", createdAt: 2000, kind: "video" }),
  makeGeneration({ id: "g1", prompt: "First: lemon still life", createdAt: 1000 }),
];

describe("Gallery", () => {
  it("shows a first-run empty state that says what to do", async () => {
    mockApi({ "GET /api/studio/generations": { items: [], nextCursor: null } });
    renderWithClient(<Gallery />);
    expect(await screen.findByRole("heading", { name: "Nothing here yet" })).toBeInTheDocument();
    expect(screen.getByText("Write a prompt")).toBeInTheDocument();
  });

  it("opens a lightbox, steps with the arrow keys, closes on Escape and returns focus to the tile", async () => {
    const api = mockApi({ "GET /api/studio/generations": { items, nextCursor: null } });
    const { user } = renderWithClient(<Gallery />);

    const tile = await screen.findByRole("button", { name: "Open video: Second: paper boats" });
    expect(api.calls[0]?.url.searchParams.get("status")).toBe("success");
    await user.click(tile);

    const dialog = await screen.findByRole("dialog", { name: /Video/ });
    expect(dialog).toHaveAttribute("aria-modal", "true");
    expect(within(dialog).getByText("Second: paper boats")).toBeInTheDocument();
    expect(within(dialog).getByText("2 of 3")).toBeInTheDocument();

    await user.keyboard("{ArrowRight}");
    expect(within(dialog).getByText("First: lemon still life")).toBeInTheDocument();
    await user.keyboard("{ArrowRight}"); // already the last one: stays
    expect(within(dialog).getByText("First: lemon still life")).toBeInTheDocument();
    await user.keyboard("{ArrowLeft}{ArrowLeft}");
    expect(within(dialog).getByText("Third: a red kite over dunes")).toBeInTheDocument();
    expect(within(dialog).getByRole("img", { name: "Third: a red kite over dunes" })).toHaveAttribute("src", "/media/g3.png");

    await user.keyboard("{Escape}");
    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
    expect(tile).toHaveFocus();
  });

  it("searches prompts (debounced) and filters by kind through the query string", async () => {
    const api = mockApi({
      "GET /api/studio/generations": (request) => {
        const q = request.url.searchParams.get("q");
        const kind = request.url.searchParams.get("kind");
        return json({
          items: items.filter((item) => (!q || item.prompt.includes(q)) && (!kind || item.kind === kind)),
          nextCursor: null,
        });
      },
    });
    const { user } = renderWithClient(<Gallery />);
    await screen.findByRole("button", { name: /Open image: Third/ });

    await user.type(screen.getByLabelText("Search prompts"), "lemon");
    await waitFor(() => expect(screen.queryByRole("button", { name: /Open image: Third/ })).not.toBeInTheDocument());
    expect(await screen.findByRole("button", { name: /Open image: First: lemon/ })).toBeInTheDocument();
    const searches = api.calls.map((call) => call.url.searchParams.get("q")).filter(Boolean);
    expect(searches).toEqual(["lemon"]); // one request, not one per keystroke

    await user.clear(screen.getByLabelText("Search prompts"));
    await user.click(screen.getByRole("radio", { name: "Videos" }));
    await waitFor(() => expect(screen.getAllByRole("listitem")).toHaveLength(1));
    expect(screen.getByRole("button", { name: /Open video: Second/ })).toBeInTheDocument();
  });

  it("favourites and deletes from the lightbox with the CSRF header", async () => {
    const api = mockApi({
      "GET /api/studio/generations": { items, nextCursor: null },
      "PUT /api/studio/generations/:id/favourite": json({ ...items[2], favourite: true, updatedAt: 9999 }),
      "DELETE /api/studio/generations/:id": () => new Response(null, { status: 204 }),
    });
    const { user } = renderWithClient(<Gallery />);
    await user.click(await screen.findByRole("button", { name: /Open image: First/ }));
    const dialog = await screen.findByRole("dialog");

    await user.click(within(dialog).getByRole("button", { name: "Add to favourites" }));
    await waitFor(() => expect(within(dialog).getByRole("button", { name: "Favourite" })).toHaveAttribute("aria-pressed", "true"));
    const [put] = api.callsTo("PUT", "/api/studio/generations/g1/favourite");
    expect(put?.headers.get("x-studio-request")).toBe("1");
    expect(JSON.parse(String(put?.body))).toEqual({ favourite: true });

    await user.click(within(dialog).getByRole("button", { name: "Delete" }));
    await user.click(within(dialog).getByRole("button", { name: "Click again to delete" }));
    await waitFor(() => expect(api.callsTo("DELETE", "/api/studio/generations/g1")).toHaveLength(1));
    // It steps to the neighbour and the deleted tile is gone.
    await waitFor(() => expect(within(dialog).getByText("Second: paper boats")).toBeInTheDocument());
    expect(screen.queryByRole("button", { name: /Open image: First/ })).not.toBeInTheDocument();
  });
});
