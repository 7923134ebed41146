import { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { STUDIO_REQUEST_HEADER } from "../../../../api/studio";
import { useStudioStore } from "../../../stores/studio-store";
import { errorReply, json, mockApi } from "../../../test/api-mock";
import { makeGeneration, pngFile, testConfig } from "../../../test/fixtures";
import { renderWithClient } from "../../../test/render";
import { ResultsPanel } from "../../results/components/results-panel";
import { CreatePanel } from "./create-panel";

function renderPanel() {
  return renderWithClient(
    <>
      <CreatePanel config={testConfig} />
      <ResultsPanel />
    </>,
    // Let the test hand the form files its accept attribute would hide, as a drop can.
    { userOptions: { applyAccept: false } },
  );
}

const fileInput = () => screen.getByLabelText("Choose reference images") as HTMLInputElement;

describe("CreatePanel", () => {
  it("counts the prompt live and blocks sending past 3000 characters, saying why", async () => {
    const api = mockApi({ "GET /api/studio/generations": { items: [], nextCursor: null } });
    const { user } = renderPanel();
    const prompt = screen.getByLabelText("Prompt");

    await user.click(prompt);
    await user.paste("a".repeat(3000));
    expect(screen.getByText(/3000 \/ 3000/)).toBeInTheDocument();
    expect(screen.queryByRole("alert")).not.toBeInTheDocument();
    expect(screen.getByRole("button", { name: /generate image/i })).toBeEnabled();

    await user.type(prompt, "b");
    expect(screen.getByText(/3001 \/ 3000/)).toBeInTheDocument();
    const message = "Prompt is 3001 characters — the limit is 3000. Shorten it to send.";
    expect(screen.getByRole("alert")).toHaveTextContent(message);
    expect(prompt).toHaveAttribute("aria-invalid", "true");
    expect(screen.getByRole("button", { name: /generate image/i })).toBeDisabled();

    await user.keyboard("{Control>}{Enter}{/Control}");
    expect(api.callsTo("POST", "/api/studio/images")).toHaveLength(0);
  });

  it("refuses files of the wrong type, size or count with a message", async () => {
    mockApi({});
    const { user } = renderPanel();

    await user.upload(fileInput(), new File(["hello"], "notes.txt", { type: "text/plain" }));
    expect(await screen.findByRole("alert")).toHaveTextContent("“notes.txt” isn't a supported image. Use PNG, JPEG, WebP or GIF.");
    expect(screen.queryByRole("list", { name: "Reference images in order" })).not.toBeInTheDocument();

    await user.upload(fileInput(), pngFile("huge.png", 2 * 1024 * 1024));
    expect(await screen.findByRole("alert")).toHaveTextContent("“huge.png” is 2 MB — the limit is 1 MB per image.");

    const five = ["a", "b", "c", "d", "e"].map((name) => pngFile(`${name}.png`));
    await user.upload(fileInput(), five);
    const list = screen.getByRole("list", { name: "Reference images in order" });
    expect(within(list).getAllByRole("listitem")).toHaveLength(4);
    expect(screen.getByRole("alert")).toHaveTextContent("Up to 4 reference images per request — “e.png” wasn't added.");
  });

  it("takes images pasted from the clipboard and image links", async () => {
    mockApi({});
    const { user } = renderPanel();
    const file = pngFile("screenshot.png");
    fireEvent.paste(screen.getByLabelText("Prompt"), {
      clipboardData: {
        types: ["Files"],
        files: [file],
        items: [{ kind: "file", type: "image/png", getAsFile: () => file }],
        getData: () => "",
      },
    });
    expect(await screen.findByRole("img", { name: "Reference 1: screenshot.png" })).toBeInTheDocument();

    await user.type(screen.getByLabelText("Image URL"), "https://example.com/cat.webp{Enter}");
    expect(screen.getByRole("img", { name: "Reference 2: https://example.com/cat.webp" })).toBeInTheDocument();
  });

  it("reorders and removes references with keyboard-reachable buttons", async () => {
    mockApi({});
    const { user } = renderPanel();
    await user.upload(fileInput(), [pngFile("one.png"), pngFile("two.png")]);
    const names = () => screen.getAllByRole("img", { name: /^Reference \d/ }).map((img) => img.getAttribute("alt"));
    expect(names()).toEqual(["Reference 1: one.png", "Reference 2: two.png"]);

    await user.click(screen.getByRole("button", { name: "Move reference 2 earlier" }));
    expect(names()).toEqual(["Reference 1: two.png", "Reference 2: one.png"]);

    await user.click(screen.getByRole("button", { name: "Remove reference 1" }));
    expect(names()).toEqual(["Reference 1: one.png"]);
  });

  it("sends N multipart requests with image parts on Ctrl+Enter and shows a tile for each", async () => {
    const pending: ((value: Response) => void)[] = [];
    const api = mockApi({
      "POST /api/studio/images": () => new Promise<Response>((resolve) => pending.push(resolve)),
    });
    const { user } = renderPanel();
    await user.upload(fileInput(), [pngFile("a.png"), pngFile("b.png")]);
    await user.click(screen.getByRole("radio", { name: "16:9" }));
    await user.click(screen.getByRole("radio", { name: "2 images" }));
    await user.type(screen.getByLabelText("Prompt"), "A quiet harbour at dawn");
    await user.keyboard("{Control>}{Enter}{/Control}");

    const posts = api.callsTo("POST", "/api/studio/images");
    expect(posts).toHaveLength(2);
    for (const post of posts) {
      expect(post.headers.get(STUDIO_REQUEST_HEADER)).toBe("1");
      expect(post.headers.get("content-type")).toBeNull();
      const form = post.body as FormData;
      expect(form).toBeInstanceOf(FormData);
      expect(form.get("prompt")).toBe("A quiet harbour at dawn");
      expect(form.get("model")).toBe("sandbox-image-1");
      expect(form.get("aspect_ratio")).toBe("16:9");
      const parts = form.getAll("image") as File[];
      expect(parts.map((part) => part.name)).toEqual(["a.png", "b.png"]);
    }

    // A pending tile per image at once…
    expect(screen.getAllByText("Generating…")).toHaveLength(2);
    // …replaced by the image when its request returns.
    await act(async () => pending[0]?.(json(makeGeneration({ id: "img-1", prompt: "A quiet harbour at dawn" }), 201)));
    expect(await screen.findByRole("button", { name: "Open image: A quiet harbour at dawn" })).toBeInTheDocument();
    expect(screen.getAllByText("Generating…")).toHaveLength(1);
  });

  it("keeps a failed image on its tile in plain words and retries it", async () => {
    let attempts = 0;
    mockApi({
      "POST /api/studio/images": () => {
        attempts += 1;
        return attempts === 1
          ? errorReply(502, "upstream_unreachable", "connect ECONNREFUSED 127.0.0.1:9")
          : json(makeGeneration({ id: "img-2", prompt: "Retry me" }), 201);
      },
    });
    const { user } = renderPanel();
    await user.type(screen.getByLabelText("Prompt"), "Retry me");
    await user.click(screen.getByRole("button", { name: "Generate image" }));

    expect(
      await screen.findByText("The generation service can't be reached right now. Try again in a moment."),
    ).toBeInTheDocument();
    expect(screen.getByText("upstream_unreachable")).toBeInTheDocument();

    await user.click(screen.getByRole("button", { name: "Retry" }));
    expect(await screen.findByRole("button", { name: "Open image: Retry me" })).toBeInTheDocument();
    expect(screen.queryByText("upstream_unreachable")).not.toBeInTheDocument();
  });

  it("shows the server's prompt_too_long message when it comes back", async () => {
    const serverMessage = "prompt must be at most 3000 characters (got 3004 after normalisation).";
    mockApi({ "POST /api/studio/videos": errorReply(400, "prompt_too_long", serverMessage) });
    const { user } = renderPanel();
    await user.click(screen.getByRole("tab", { name: "Video" }));
    await user.type(screen.getByLabelText("Prompt"), "Waves");
    await user.click(screen.getByRole("button", { name: "Generate video" }));
    expect(await screen.findByRole("alert")).toHaveTextContent(serverMessage);
  });

  it("sends a video with the first and last frames in order", async () => {
    const api = mockApi({
      "POST /api/studio/videos": json(makeGeneration({ id: "vid-1", kind: "video", status: "pending" }), 202),
      "GET /api/studio/generations/:id": json(makeGeneration({ id: "vid-1", kind: "video", status: "pending" })),
      "GET /api/studio/generations": json({ items: [], nextCursor: null }),
    });
    const { user } = renderPanel();
    await user.click(screen.getByRole("tab", { name: "Video" }));
    await user.upload(screen.getByLabelText("Choose a file for the last frame"), pngFile("end.png"));
    await user.upload(screen.getByLabelText("Choose a file for the first frame"), pngFile("start.png"));
    await user.selectOptions(screen.getByLabelText("Size"), "1280x720");
    await user.type(screen.getByLabelText("Prompt"), "Slow pan");
    await user.keyboard("{Meta>}{Enter}{/Meta}");

    const [post] = api.callsTo("POST", "/api/studio/videos");
    const form = post?.body as FormData;
    expect((form.getAll("image") as File[]).map((file) => file.name)).toEqual(["start.png", "end.png"]);
    expect(form.get("size")).toBe("1280x720");
    await waitFor(() => expect(useStudioStore.getState().videoCardIds).toEqual(["vid-1"]));
  });
});
