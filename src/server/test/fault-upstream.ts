/**
 * A fake provider on a real socket (127.0.0.1, free port) whose behaviour can be switched per
 * route and per request, for the studio server's socket tests.
 *
 * - `ok` answers with valid contract responses; video tasks move pending → processing → success
 *   over time (see `timeline`), or stay where `setTaskStatus` puts them. Files it hands out are a
 *   real PNG and an MP4-shaped file with a PNG cover, served from /files/*.
 * - the fault modes break the answer in one particular way (see `FaultMode`).
 *
 * It keeps every request it received (method, path, headers, body text) and counts them per path,
 * so tests can assert what reached the provider: which headers, how many attempts.
 */
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import sharp from "sharp";
import { errorBody } from "../../api/errors";
import type { ImageResult, TaskAcceptance, VideoTaskRecord, VideoTaskStatus } from "../../api/provider";

export type FaultMode =
  /** Valid answers. */
  | "ok"
  /** Reads the request and never answers. */
  | "timeout"
  /** HTTP 500 with a JSON error body. */
  | "status-500"
  /** HTTP 200 with an HTML page (a proxy's error page, a login wall...). */
  | "html"
  /** Destroys the socket without answering. */
  | "reset"
  /** HTTP 200, content-type JSON, a body that is not JSON. */
  | "bad-json"
  /** HTTP 200 with valid JSON that lacks the contract's fields. */
  | "wrong-schema"
  /** Sends the status line and headers and part of the body, then stalls. */
  | "slow-body"
  /** HTTP 400 whose error message repeats the Authorization header it received (a careless provider). */
  | "echo-key"
  /** HTTP 500 whose error message repeats the Authorization header it received. */
  | "echo-key-500";

export const faultModes: readonly FaultMode[] = [
  "ok",
  "timeout",
  "status-500",
  "html",
  "reset",
  "bad-json",
  "wrong-schema",
  "slow-body",
  "echo-key",
  "echo-key-500",
];

/** The provider's three endpoints. */
export type FaultRoute = "image" | "submit" | "status";

export interface ReceivedRequest {
  method: string;
  /** Path without the query string. */
  path: string;
  route: FaultRoute | "file" | "other";
  headers: IncomingHttpHeaders;
  /** The body as text (at most 256 KB kept); empty for GETs. */
  body: string;
  /** What the fake did with it. */
  mode: FaultMode | "file" | "not-found";
  at: number;
}

export interface FaultTask {
  id: string;
  createdAt: number;
  prompt: string;
  model: string;
  webhookUrl: string | null;
  /** When set, the status GET reports this instead of the timeline's state. */
  forcedStatus: VideoTaskStatus | null;
}

export interface FaultUpstreamOptions {
  /** The only key accepted (`Authorization: Bearer <apiKey>`); others get 401. */
  apiKey: string;
  /** How long a new task is pending, then processing, before it succeeds (ok mode). */
  timeline?: { pendingMs: number; processingMs: number };
}

export interface FaultUpstream {
  baseUrl: string;
  apiKey: string;
  /** The behaviour of each route when no one-off mode is queued. Mutable. */
  modes: Record<FaultRoute, FaultMode>;
  /** Mutable; applies to tasks by their age. */
  timeline: { pendingMs: number; processingMs: number };
  /** Sets the behaviour of one route, or of all three. */
  setMode(route: FaultRoute | "all", mode: FaultMode): void;
  /** The next request(s) to this route get these modes, in order; then `modes` applies again. */
  queueModes(route: FaultRoute, ...modes: FaultMode[]): void;
  requests: ReceivedRequest[];
  /** Requests received for a route (all paths), or for one exact path. */
  count(route: FaultRoute | "file"): number;
  countPath(method: string, path: string): number;
  tasks: Map<string, FaultTask>;
  /** Pins a task's reported status (null: back to the timeline). */
  setTaskStatus(taskId: string, status: VideoTaskStatus | null): void;
  /** The status the status GET reports for a task now. */
  statusOf(task: FaultTask): VideoTaskStatus;
  /** URLs the fake hands out for a task's outputs. */
  videoUrls(taskId: string): { url: string; coverUrl: string };
  /** Forgets recorded requests (not tasks or modes). */
  resetRecords(): void;
  close(): Promise<void>;
}

const MAX_KEPT_BODY = 256 * 1024;
const FAIL_PROMPT = "fault:fail";

/** A file that passes for an MP4: an ISO-media `ftyp` box followed by a small `mdat` box. */
const FAKE_MP4 = Buffer.concat([
  Buffer.from("00000018667479706973366d0000020069736f6d6d703431", "hex"),
  Buffer.from("000000186d646174", "hex"),
  Buffer.alloc(16, 7),
]);

export async function startFaultUpstream(options: FaultUpstreamOptions): Promise<FaultUpstream> {
  const png = await sharp({ create: { width: 96, height: 54, channels: 3, background: { r: 220, g: 90, b: 30 } } })
    .png()
    .toBuffer();
  const cover = await sharp({ create: { width: 128, height: 72, channels: 3, background: { r: 30, g: 90, b: 220 } } })
    .png()
    .toBuffer();

  const modes: Record<FaultRoute, FaultMode> = { image: "ok", submit: "ok", status: "ok" };
  const queued: Record<FaultRoute, FaultMode[]> = { image: [], submit: [], status: [] };
  const requests: ReceivedRequest[] = [];
  const tasks = new Map<string, FaultTask>();
  const timeline = { pendingMs: 500, processingMs: 1500, ...options.timeline };
  let baseUrl = "";
  let lastTaskId = 0;
  let imageCounter = 0;

  const statusOf = (task: FaultTask): VideoTaskStatus => {
    if (task.forcedStatus) return task.forcedStatus;
    const age = Date.now() - task.createdAt;
    if (age < timeline.pendingMs) return "pending";
    if (age < timeline.pendingMs + timeline.processingMs) return "processing";
    return task.prompt.includes(FAIL_PROMPT) ? "failed" : "success";
  };
  const videoUrls = (taskId: string) => ({
    url: `${baseUrl}/files/video-${taskId}.mp4`,
    coverUrl: `${baseUrl}/files/video-${taskId}-cover.png`,
  });

  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const url = new URL(request.url ?? "/", "http://fault.invalid");
    const method = request.method ?? "GET";
    const route = routeOf(method, url.pathname);
    const record: ReceivedRequest = { method, path: url.pathname, route, headers: { ...request.headers }, body: "", mode: "ok", at: Date.now() };
    requests.push(record);

    if (route === "file") {
      record.mode = "file";
      const name = url.pathname.slice("/files/".length);
      if (/^image-\d+\.png$/.test(name)) return send(response, 200, "image/png", png);
      if (/^video-\d+\.mp4$/.test(name)) return send(response, 200, "video/mp4", FAKE_MP4);
      if (/^video-\d+-cover\.png$/.test(name)) return send(response, 200, "image/png", cover);
      record.mode = "not-found";
      return sendJson(response, 404, errorBody("not_found", "No such file."));
    }
    if (route === "other") {
      record.mode = "not-found";
      request.resume();
      return sendJson(response, 404, errorBody("not_found", `Nothing at ${method} ${url.pathname}.`));
    }

    const mode = queued[route].shift() ?? modes[route];
    record.mode = mode;
    if (mode === "reset") {
      request.socket.destroy();
      return;
    }
    record.body = await readBody(request);
    const authorization = request.headers.authorization ?? "";

    switch (mode) {
      case "timeout":
        return; // Never answers; close() ends the connection.
      case "status-500":
        return sendJson(response, 500, errorBody("internal_error", "The fake provider broke."));
      case "html":
        return send(response, 200, "text/html; charset=utf-8", Buffer.from("<!doctype html><html><body><h1>Please sign in</h1></body></html>"));
      case "bad-json":
        return send(response, 200, "application/json", Buffer.from('{"created": 17, "data": [{"url": '));
      case "wrong-schema":
        return sendJson(response, 200, { ok: true, result: "done" });
      case "slow-body":
        response.writeHead(200, { "content-type": "application/json" });
        response.write('{"created": 1');
        return; // Stalls; close() ends the connection.
      case "echo-key":
        return sendJson(response, 400, errorBody("invalid_field", `The model is not enabled for the key in "${authorization}".`));
      case "echo-key-500":
        return sendJson(response, 500, errorBody("internal_error", `Quota lookup failed for ${authorization}.`));
      case "ok":
        break;
    }

    if (authorization !== `Bearer ${options.apiKey}`) {
      return sendJson(response, 401, errorBody("unauthorized", "The API key is not valid."));
    }
    if (route === "image") {
      imageCounter += 1;
      const result: ImageResult = { created: Math.floor(Date.now() / 1000), data: [{ url: `${baseUrl}/files/image-${imageCounter}.png` }] };
      return sendJson(response, 200, result);
    }
    if (route === "submit") {
      const fields = parseFields(record.body);
      lastTaskId = Math.max(lastTaskId + 1, Date.now() * 1000);
      const id = String(lastTaskId);
      tasks.set(id, {
        id,
        createdAt: Date.now(),
        prompt: typeof fields.prompt === "string" ? fields.prompt : "",
        model: typeof fields.model === "string" ? fields.model : "",
        webhookUrl: typeof fields.webhookUrl === "string" ? fields.webhookUrl : typeof fields.callback_url === "string" ? fields.callback_url : null,
        forcedStatus: null,
      });
      const acceptance: TaskAcceptance = { id, status: "pending", message: `Task ${id} is queued.` };
      return sendJson(response, 200, acceptance);
    }
    const taskId = decodeURIComponent(url.pathname.slice("/api/ai/videos/".length));
    const task = tasks.get(taskId);
    if (!task) return sendJson(response, 404, errorBody("task_not_found", `No video task has the id ${taskId}.`));
    const status = statusOf(task);
    const urls = videoUrls(task.id);
    const taskRecord: VideoTaskRecord = {
      id: task.id,
      object: "video",
      created: Math.floor(task.createdAt / 1000),
      model: task.model,
      status,
      data: status === "success" ? [{ url: urls.url, cover_url: urls.coverUrl }] : [],
      error: status === "failed" ? { code: "timeout", message: "The task timed out." } : null,
    };
    return sendJson(response, 200, taskRecord);
  };

  const server = createServer((request, response) => {
    handle(request, response).catch(() => {
      if (!response.headersSent) sendJson(response, 500, errorBody("internal_error", "The fake provider failed."));
      else response.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    baseUrl,
    apiKey: options.apiKey,
    modes,
    timeline,
    setMode(route, mode) {
      for (const name of route === "all" ? (["image", "submit", "status"] as const) : [route]) modes[name] = mode;
    },
    queueModes(route, ...next) {
      queued[route].push(...next);
    },
    requests,
    count: (route) => requests.filter((request) => request.route === route).length,
    countPath: (method, path) => requests.filter((request) => request.method === method && request.path === path).length,
    tasks,
    setTaskStatus(taskId, status) {
      const task = tasks.get(taskId);
      if (!task) throw new Error(`The fake provider has no task ${taskId}.`);
      task.forcedStatus = status;
    },
    statusOf,
    videoUrls,
    resetRecords() {
      requests.splice(0);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function routeOf(method: string, pathname: string): ReceivedRequest["route"] {
  if (method === "POST" && pathname === "/api/ai/images/generations") return "image";
  if (method === "POST" && pathname === "/api/ai/videos") return "submit";
  if (method === "GET" && /^\/api\/ai\/videos\/[^/]+$/.test(pathname)) return "status";
  if (method === "GET" && pathname.startsWith("/files/")) return "file";
  return "other";
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let kept = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    if (kept < MAX_KEPT_BODY) {
      chunks.push(chunk);
      kept += chunk.length;
    }
  }
  return Buffer.concat(chunks).toString("utf8").slice(0, MAX_KEPT_BODY);
}

/** JSON body fields, or the text fields of a multipart body (enough for prompt/model/webhookUrl). */
function parseFields(body: string): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(body);
    if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) return parsed as Record<string, unknown>;
  } catch {
    // multipart
  }
  const fields: Record<string, unknown> = {};
  for (const match of body.matchAll(/name="([^"]+)"\r\n\r\n([^\r]*)\r\n/g)) {
    const [, name, value] = match;
    if (name !== undefined && fields[name] === undefined) fields[name] = value;
  }
  return fields;
}

function send(response: ServerResponse, status: number, contentType: string, body: Buffer): void {
  response.writeHead(status, { "content-type": contentType, "content-length": String(body.length) });
  response.end(body);
}

function sendJson(response: ServerResponse, status: number, body: unknown): void {
  send(response, status, "application/json", Buffer.from(JSON.stringify(body)));
}
