import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { rm } from "node:fs/promises";
import { afterEach, describe, expect, it } from "vitest";
import { imageResultSchema, taskAcceptanceSchema, taskResultSchema, videoTaskRecordSchema, type TaskResult } from "../api/provider";
import { startSandbox, type RunningSandbox } from "./start-sandbox";
import { AUTH, fastConfig, solidPng, waitFor, type LogLine } from "./test/sandbox-harness";

interface Receiver {
  url: string;
  deliveries: TaskResult[];
  attempts: number;
  close: () => Promise<void>;
}

/** A real webhook receiver on its own port; `answer` picks the status for each attempt. */
async function startReceiver(answer: (attempt: number) => number = () => 200): Promise<Receiver> {
  const receiver: Receiver = { url: "", deliveries: [], attempts: 0, close: async () => {} };
  const server: Server = createServer(async (request: IncomingMessage, response) => {
    receiver.attempts++;
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const status = answer(receiver.attempts);
    if (status < 300) receiver.deliveries.push(taskResultSchema.parse(JSON.parse(Buffer.concat(chunks).toString("utf8"))));
    response.writeHead(status).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/task`;
  receiver.close = () => new Promise((resolve) => server.close(() => resolve()));
  return receiver;
}

/** A port with nothing listening on it. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe("sandbox provider over real sockets", () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  async function start() {
    const config = await fastConfig();
    const logs: LogLine[] = [];
    const sandbox: RunningSandbox = await startSandbox({ config, log: (message, fields) => logs.push({ message, fields }) });
    cleanups.push(async () => {
      await sandbox.close();
      await rm(config.mediaDir, { recursive: true, force: true });
    });
    const submit = async (body: Record<string, unknown>) => {
      const response = await fetch(`${sandbox.baseUrl}/api/ai/videos`, {
        method: "POST",
        headers: { ...AUTH, "content-type": "application/json" },
        body: JSON.stringify({ model: "sandbox-video", size: "128x72", ...body }),
      });
      expect(response.status).toBe(200);
      return taskAcceptanceSchema.parse(await response.json());
    };
    const status = async (id: string) =>
      videoTaskRecordSchema.parse(await (await fetch(`${sandbox.baseUrl}/api/ai/videos/${id}`, { headers: AUTH })).json());
    return { sandbox, logs, submit, status };
  }

  async function withReceiver(answer?: (attempt: number) => number) {
    const receiver = await startReceiver(answer);
    cleanups.push(receiver.close);
    return receiver;
  }

  it("POSTs the task result to webhookUrl on success, with a downloadable MP4", async () => {
    const { submit } = await start();
    const receiver = await withReceiver();
    const { id } = await submit({ prompt: "a paper boat", webhookUrl: receiver.url });
    const [delivery] = await waitFor(async () => receiver.deliveries, (list) => list.length > 0);
    expect(delivery).toMatchObject({ id, object: "task_result", status: "success", error: null });
    expect(delivery!.result.images).toHaveLength(1);
    expect(delivery!.result.images[0]!.fileType).toBe("mp4");
    const video = await fetch(delivery!.result.images[0]!.fileUrl);
    expect(video.headers.get("content-type")).toBe("video/mp4");
    expect(Buffer.from(await video.arrayBuffer()).subarray(4, 8).toString("latin1")).toBe("ftyp");
  });

  it("POSTs a failed result with an empty image list and an error string", async () => {
    const { submit } = await start();
    const receiver = await withReceiver();
    const { id } = await submit({ prompt: "sandbox:fail", webhookUrl: receiver.url });
    const [delivery] = await waitFor(async () => receiver.deliveries, (list) => list.length > 0);
    expect(delivery).toMatchObject({ id, object: "task_result", status: "failed", result: { images: [] } });
    expect(typeof delivery!.error).toBe("string");
    expect(delivery!.error).toMatch(/timed out/i);
  });

  it("honours callback_url as an alias of webhookUrl", async () => {
    const { submit } = await start();
    const receiver = await withReceiver();
    const { id } = await submit({ prompt: "alias", callback_url: receiver.url });
    const [delivery] = await waitFor(async () => receiver.deliveries, (list) => list.length > 0);
    expect(delivery?.id).toBe(id);
  });

  it("retries a receiver that answers 500, then delivers once", async () => {
    const { submit } = await start();
    const receiver = await withReceiver((attempt) => (attempt < 3 ? 500 : 204));
    await submit({ prompt: "retry me", webhookUrl: receiver.url });
    await waitFor(async () => receiver.deliveries, (list) => list.length > 0);
    expect(receiver.attempts).toBe(3);
    expect(receiver.deliveries).toHaveLength(1);
  });

  it("keeps serving while a receiver is down, then gives up on it and logs it", async () => {
    const { submit, status, logs, sandbox } = await start();
    const port = await closedPort();
    const { id } = await submit({ prompt: "nobody listens", webhookUrl: `http://127.0.0.1:${port}/hook/secret-token` });
    const record = await waitFor(() => status(id), (task) => task.status === "success");
    expect(record.data).toHaveLength(1);
    const health = await fetch(`${sandbox.baseUrl}/healthz`);
    expect(health.status).toBe(200);
    const gaveUp = await waitFor(async () => logs.find((line) => line.message === "webhook delivery gave up"), Boolean);
    expect(gaveUp?.fields?.attempts).toBe(3);
    expect(JSON.stringify(gaveUp)).not.toContain("secret-token");
  });

  it("keeps rendering other tasks while a receiver accepts and never answers, and retries it", async () => {
    const config = await fastConfig({ videoConcurrency: 1, webhookTimeoutMs: 2000 });
    const sandbox = await startSandbox({ config, log: () => {} });
    let hits = 0;
    const silent = createServer(() => {
      hits++;
    });
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    cleanups.push(async () => {
      silent.closeAllConnections();
      await new Promise((resolve) => silent.close(resolve));
      await sandbox.close();
      await rm(config.mediaDir, { recursive: true, force: true });
    });
    const post = async (body: Record<string, unknown>) => {
      const response = await fetch(`${sandbox.baseUrl}/api/ai/videos`, {
        method: "POST",
        headers: { ...AUTH, "content-type": "application/json" },
        body: JSON.stringify({ model: "v", size: "128x72", ...body }),
      });
      return taskAcceptanceSchema.parse(await response.json()).id;
    };
    await post({ prompt: "to a silent receiver", webhookUrl: `http://127.0.0.1:${(silent.address() as AddressInfo).port}/hook` });
    const next = await post({ prompt: "queued behind it" });
    const record = await waitFor(
      async () => videoTaskRecordSchema.parse(await (await fetch(`${sandbox.baseUrl}/api/ai/videos/${next}`, { headers: AUTH })).json()),
      (task) => task.status === "success",
      3000,
    );
    expect(record.status).toBe("success");
    // The silent attempt times out after 2 s and is tried again.
    await waitFor(async () => hits, (count) => count >= 2, 5000);
  });

  it("generates an image from a multipart upload over the network", async () => {
    const { sandbox } = await start();
    const form = new FormData();
    form.set("prompt", "from a real upload");
    form.set("model", "sandbox-image");
    form.set("aspect_ratio", "1:1");
    form.append("image", new Blob([new Uint8Array(await solidPng({ r: 10, g: 200, b: 10 }))], { type: "image/png" }), "green.png");
    const response = await fetch(`${sandbox.baseUrl}/api/ai/images/generations`, { method: "POST", headers: AUTH, body: form });
    expect(response.status).toBe(200);
    const result = imageResultSchema.parse(await response.json());
    const file = await fetch(result.data[0]!.url);
    expect(file.status).toBe(200);
    expect(file.headers.get("content-type")).toBe("image/png");
  });
});
