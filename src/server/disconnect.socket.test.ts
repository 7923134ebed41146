/**
 * Clients that go away mid-request, over real sockets: a generation the provider is already
 * working on is finished and kept (the user finds it in the history), and an upload cut off
 * half-way leaves nothing behind.
 */
import { existsSync } from "node:fs";
import { readdir } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { STUDIO_REQUEST_HEADER } from "../api/studio";
import { call, isMirrored, listGenerations, sleep, startSocketStudio, waitFor, type SocketStudio } from "./test/socket-harness";

const IMAGE_DELAY_MS = 1500;

describe("a client that disconnects mid-request", () => {
  let studio: SocketStudio;

  beforeAll(async () => {
    studio = await startSocketStudio({}, { sandboxOverrides: { imageDelayMs: IMAGE_DELAY_MS, pendingMs: 50, processingMs: 200, videoDurationSeconds: 1 } });
  });
  afterAll(async () => {
    await studio?.close();
  });

  it.each([
    { route: "/api/studio/images", prompt: "abandoned studio image" },
    { route: "/api/ai/images/generations", prompt: "abandoned provider image" },
  ])("$route: the image is still generated, recorded as success and mirrored", async ({ route, prompt }) => {
    const controller = new AbortController();
    const started = Date.now();
    const request = fetch(`${studio.url}${route}`, {
      method: "POST",
      headers: { "content-type": "application/json", [STUDIO_REQUEST_HEADER]: "1" },
      body: JSON.stringify({ prompt, model: "sandbox-image-1" }),
      signal: controller.signal,
    });
    // The studio has recorded it and is waiting for the provider...
    const inFlight = await waitFor(
      async () => (await listGenerations(studio.url, `q=${encodeURIComponent(prompt)}`))[0],
      (generation) => generation?.status === "processing",
      3000,
      20,
    );
    // ...when the browser tab is closed.
    controller.abort();
    await expect(request).rejects.toThrow();
    expect(Date.now() - started).toBeLessThan(IMAGE_DELAY_MS);

    const done = await waitFor(() => listGenerations(studio.url, `q=${encodeURIComponent(prompt)}`), (list) => list[0] !== undefined && isMirrored(list[0]), 10_000, 50);
    const generation = done[0];
    expect(generation?.id).toBe(inFlight?.id);
    expect(done).toHaveLength(1);
    expect(generation?.statusHistory.map((change) => change.status)).toEqual(["processing", "success"]);
    const output = generation?.outputs[0];
    expect(output?.url).toMatch(/^\/media\/.+\/0\.png$/);
    expect(existsSync(path.join(studio.dataDir, ...(output?.url ?? "").split("/").filter(Boolean)))).toBe(true);
    expect(existsSync(path.join(studio.dataDir, ...(output?.thumbnailUrl ?? "").split("/").filter(Boolean)))).toBe(true);
    const served = await fetch(`${studio.url}${output?.url ?? ""}`);
    expect(served.status).toBe(200);
    expect(served.headers.get("content-type")).toContain("image/png");
    await served.body?.cancel();
  });

  it("an upload cut off half-way records nothing and leaves no partial file", async () => {
    const boundary = "----cut-off-upload";
    const head = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="prompt"\r\n\r\nhalf an upload\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="model"\r\n\r\nsandbox-image-1\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="image"; filename="big.png"\r\nContent-Type: image/png\r\n\r\n`,
    );
    const pngStart = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, ...Array.from({ length: 64 * 1024 }, () => 1)]);
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      async pull(stream) {
        // The headers, the text fields and the start of the file; then the connection stalls.
        if (sent === 0) stream.enqueue(head);
        else if (sent === 1) stream.enqueue(pngStart);
        else await sleep(10_000);
        sent++;
      },
    });
    const controller = new AbortController();
    const request = fetch(`${studio.url}/api/studio/images`, {
      method: "POST",
      headers: { "content-type": `multipart/form-data; boundary=${boundary}`, [STUDIO_REQUEST_HEADER]: "1" },
      body,
      signal: controller.signal,
      duplex: "half",
    } as RequestInit & { duplex: "half" });
    const referencesDir = path.join(studio.dataDir, "references");
    const listReferences = async () => (existsSync(referencesDir) ? await readdir(referencesDir) : []);
    // The server is streaming the file to disk...
    await waitFor(listReferences, (files) => files.some((file) => file.endsWith(".part")), 3000, 10);
    controller.abort();
    await expect(request).rejects.toThrow();

    // ...and cleans up on its own when the client goes, and keeps serving.
    await waitFor(listReferences, (files) => files.length === 0, 5000, 50);
    expect((await listGenerations(studio.url, "q=half%20an%20upload")).length).toBe(0);
    expect((await call(studio.url, "/healthz")).status).toBe(200);
    const after = await call(studio.url, "/api/studio/images", { method: "POST", body: { prompt: "after the cut", model: "sandbox-image-1" } });
    expect(after.status).toBe(201);
  });
});
