/**
 * What keeps other web pages and other machines out, in process: the CSRF guard, the Host check
 * (DNS rebinding), no CORS, and the optional STUDIO_TOKEN sign-in (cookie for the browser, Bearer
 * for scripts). Every refusal is an error body with its status.
 */
import BetterSqlite3 from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { imageResultSchema, providerPaths, taskAcceptanceSchema, videoTaskRecordSchema, type TaskResult } from "../api/provider";
import { STUDIO_REQUEST_HEADER, generationPageSchema, generationSchema } from "../api/studio";
import { SESSION_COOKIE } from "./auth";
import { createStudioHarness, expectError, fileOf, formOf, pngBytes, SMALL_VIDEO_SIZE, TEST_ORIGIN, type StudioHarness } from "./test/studio-harness";

const NO_CSRF_HEADER = { [STUDIO_REQUEST_HEADER]: null };

function accessControlHeaders(response: Response): string[] {
  return [...response.headers.keys()].filter((name) => name.startsWith("access-control-"));
}

describe("CSRF guard and Host check (no token)", () => {
  let h: StudioHarness;
  let existingId = "";
  beforeAll(async () => {
    h = await createStudioHarness();
    existingId = h.ledger.createGeneration({ kind: "image", status: "success", prompt: "keep me", model: "m", params: {}, references: [] }).id;
  });
  afterAll(async () => {
    await h.close();
  });

  const stateChanging = () =>
    [
      { name: "provider image", send: (headers: Record<string, string | null>) => h.postJson(providerPaths.images, { prompt: "csrf", model: "m" }, headers) },
      { name: "provider video", send: (headers: Record<string, string | null>) => h.postJson(providerPaths.videos, { prompt: "csrf", model: "m" }, headers) },
      { name: "studio image", send: (headers: Record<string, string | null>) => h.postJson("/api/studio/images", { prompt: "csrf", model: "m" }, headers) },
      { name: "studio video", send: (headers: Record<string, string | null>) => h.postJson("/api/studio/videos", { prompt: "csrf", model: "m" }, headers) },
      {
        name: "multipart image",
        send: async (headers: Record<string, string | null>) =>
          h.postForm(providerPaths.images, formOf({ prompt: "csrf", model: "m" }, [fileOf(await pngBytes(), "a.png")]), headers),
      },
      {
        name: "favourite",
        send: (headers: Record<string, string | null>) => h.putJson(`/api/studio/generations/${existingId}/favourite`, { favourite: true }, headers),
      },
      { name: "delete", send: (headers: Record<string, string | null>) => h.delete(`/api/studio/generations/${existingId}`, headers) },
    ] as const;

  /** Nothing changed: no new generation, the seeded one untouched, no uploaded file kept. */
  async function expectUnchanged(run: () => Promise<void>) {
    const before = { generations: h.allGenerations(), references: await h.listFiles("references") };
    await run();
    expect({ generations: h.allGenerations(), references: await h.listFiles("references") }).toEqual(before);
  }

  it("refuses every state-changing request without the x-studio-request header with 403 forbidden", async () => {
    await expectUnchanged(async () => {
      for (const { send } of stateChanging()) {
        const body = await expectError(await send(NO_CSRF_HEADER), 403, "forbidden");
        expect(body.error.message).toContain(STUDIO_REQUEST_HEADER);
      }
      await expectError(await h.request("/api/studio/session", { method: "POST", headers: NO_CSRF_HEADER, body: "{}" }), 403, "forbidden");
    });
  });

  it("refuses requests from another origin even with the header", async () => {
    await expectUnchanged(async () => {
      for (const { send } of stateChanging()) {
        await expectError(await send({ origin: "http://evil.example" }), 403, "forbidden");
        await expectError(await send({ origin: "http://127.0.0.1:3001" }), 403, "forbidden");
      }
    });
  });

  it("refuses requests a browser marks Sec-Fetch-Site: cross-site", async () => {
    await expectUnchanged(async () => {
      for (const { send } of stateChanging()) {
        await expectError(await send({ "sec-fetch-site": "cross-site" }), 403, "forbidden");
      }
    });
  });

  it("accepts the studio's own browser requests: same Origin and Sec-Fetch-Site same-origin", async () => {
    const response = await h.putJson(`/api/studio/generations/${existingId}/favourite`, { favourite: true }, {
      origin: TEST_ORIGIN,
      "sec-fetch-site": "same-origin",
    });
    expect(response.status).toBe(200);
    expect(generationSchema.parse(await response.json()).favourite).toBe(true);
  });

  it("lets a script with an Authorization header through without the custom header, using the studio's own provider key", async () => {
    const response = await h.postJson(providerPaths.images, { prompt: "from a script", model: "m" }, {
      ...NO_CSRF_HEADER,
      authorization: "Bearer not-the-provider-key",
    });
    expect(response.status).toBe(200);
    expect(imageResultSchema.parse(await response.json()).data).toHaveLength(1);
  });

  it("does not need the header for reads", async () => {
    expect((await h.get("/api/studio/config", NO_CSRF_HEADER)).status).toBe(200);
    expect((await h.get("/api/studio/generations", NO_CSRF_HEADER)).status).toBe(200);
  });

  it.each(["localhost:3000", "127.0.0.1:3000", "localhost", "[::1]:3000", "LOCALHOST:3000"])("answers to the loopback Host %s", async (host) => {
    expect((await h.get("/api/studio/config", { host })).status).toBe(200);
    expect((await h.get("/healthz", { host })).status).toBe(200);
  });

  it.each(["evil.example", "evil.example:3000", "127.0.0.1.evil.example:3000", "localhost.evil.example", "10.0.0.5:3000", null])(
    "refuses the Host %s with 403 forbidden (DNS rebinding)",
    async (host) => {
      await expectError(await h.get("/api/studio/config", { host }), 403, "forbidden");
      await expectError(await h.get("/api/studio/generations", { host }), 403, "forbidden");
      await expectError(await h.get("/healthz", { host }), 403, "forbidden");
      await expectError(await h.get(`/media/${existingId}/0.png`, { host }), 403, "forbidden");
      await expectUnchanged(async () => {
        await expectError(await h.postJson("/api/studio/images", { prompt: "rebound", model: "m" }, { host }), 403, "forbidden");
      });
    },
  );

  it("never sends CORS headers, not even to a preflight from a foreign origin", async () => {
    const preflight = await h.request(providerPaths.images, {
      method: "OPTIONS",
      headers: {
        ...NO_CSRF_HEADER,
        origin: "http://evil.example",
        "access-control-request-method": "POST",
        "access-control-request-headers": `content-type, ${STUDIO_REQUEST_HEADER}, authorization`,
      },
    });
    expect(preflight.status).toBeGreaterThanOrEqual(400);
    expect(accessControlHeaders(preflight)).toEqual([]);

    for (const path of ["/api/studio/config", "/api/studio/generations", "/healthz", "/api/studio/session"]) {
      const response = await h.get(path, { origin: "http://evil.example" });
      expect(response.headers.get("access-control-allow-origin")).toBeNull();
      expect(accessControlHeaders(response)).toEqual([]);
    }
    const image = await h.postJson(providerPaths.images, { prompt: "cors", model: "m" }, { origin: TEST_ORIGIN });
    expect(accessControlHeaders(image)).toEqual([]);
  });

  it("does not serve files outside the media folder", async () => {
    for (const path of ["/media/..%2fledger.sqlite", "/media/%2e%2e/ledger.sqlite", "/media/../ledger.sqlite", "/media//etc/passwd", "/media/sandbox"]) {
      const response = await h.get(path);
      expect(response.status, path).toBe(404);
    }
  });
});

describe("Host check with PUBLIC_URL, and on a network bind", () => {
  it("also answers to PUBLIC_URL's host name", async () => {
    const h = await createStudioHarness({ env: { PUBLIC_URL: "https://studio.example.com" } });
    try {
      expect((await h.get("/api/studio/config", { host: "studio.example.com" })).status).toBe(200);
      expect((await h.get("/api/studio/config", { host: "127.0.0.1:3000" })).status).toBe(200);
      await expectError(await h.get("/api/studio/config", { host: "other.example.com" }), 403, "forbidden");
    } finally {
      await h.close();
    }
  });

  it("bound to the network, answers any Host name but only with the token", async () => {
    const h = await createStudioHarness({ env: { HOST: "0.0.0.0", STUDIO_TOKEN: "network-token-123456" } });
    try {
      await expectError(await h.get("/api/studio/config", { host: "192.168.1.20:3000" }), 401, "unauthorized");
      const response = await h.get("/api/studio/config", { host: "192.168.1.20:3000", authorization: "Bearer network-token-123456" });
      expect(response.status).toBe(200);
    } finally {
      await h.close();
    }
  });
});

describe("sign-in with STUDIO_TOKEN", () => {
  const TOKEN = "correct-horse-battery-staple";
  let h: StudioHarness;
  let imageUrl = "";
  beforeAll(async () => {
    h = await createStudioHarness({ env: { STUDIO_TOKEN: TOKEN } });
    const response = await h.postJson(providerPaths.images, { prompt: "made by a script", model: "m" }, { authorization: `Bearer ${TOKEN}` });
    expect(response.status).toBe(200);
    const [item] = imageResultSchema.parse(await response.json()).data;
    imageUrl = new URL(item?.url ?? "").pathname;
  });
  afterAll(async () => {
    await h.close();
  });

  const signIn = async (): Promise<string> => {
    const response = await h.postJson("/api/studio/session", { token: TOKEN });
    expect(response.status).toBe(204);
    const setCookie = response.headers.get("set-cookie") ?? "";
    const value = new RegExp(`^${SESSION_COOKIE}=([^;]+)`).exec(setCookie)?.[1];
    if (!value) throw new Error(`no session cookie in ${setCookie}`);
    return `${SESSION_COOKIE}=${value}`;
  };

  it("refuses /api/* and /media/* without credentials with 401 unauthorized", async () => {
    const before = h.allGenerations().length;
    for (const path of ["/api/studio/config", "/api/studio/generations", "/api/studio/events", "/api/ai/videos/123", imageUrl, "/media/missing/0.png"]) {
      await expectError(await h.get(path), 401, "unauthorized");
    }
    await expectError(await h.postJson(providerPaths.images, { prompt: "no session", model: "m" }), 401, "unauthorized");
    await expectError(await h.postJson("/api/studio/videos", { prompt: "no session", model: "m" }), 401, "unauthorized");
    const form = formOf({ prompt: "no session", model: "m" }, [fileOf(await pngBytes(), "a.png")]);
    await expectError(await h.postForm("/api/studio/images", form), 401, "unauthorized");
    expect(h.allGenerations()).toHaveLength(before);
    expect(await h.listFiles("references")).toEqual([]);
  });

  it("does not open other spellings of protected paths", async () => {
    for (const path of ["/api/studio/generations/", "//api/studio/generations", "/api//studio/generations", "/API/studio/generations", "/api/studio/session/../generations"]) {
      const response = await h.get(path);
      expect([401, 404], path).toContain(response.status);
    }
  });

  it("reports the session state, and refuses a wrong token with 401", async () => {
    const state = await h.get("/api/studio/session");
    expect(state.status).toBe(200);
    expect(await state.json()).toEqual({ required: true, authenticated: false });

    for (const body of [{ token: "wrong-token-000000" }, { token: TOKEN.slice(0, -1) }, { token: 12 }, {}, "not json"]) {
      const response = await h.postJson("/api/studio/session", body);
      await expectError(response, 401, "unauthorized");
      expect(response.headers.get("set-cookie")).toBeNull();
    }
  });

  it("signs in with the right token: an HttpOnly, SameSite=Strict cookie that is not the token", async () => {
    const response = await h.postJson("/api/studio/session", { token: TOKEN });
    expect(response.status).toBe(204);
    const setCookie = response.headers.get("set-cookie") ?? "";
    expect(setCookie).toMatch(new RegExp(`^${SESSION_COOKIE}=`));
    expect(setCookie).toMatch(/;\s*HttpOnly/i);
    expect(setCookie).toMatch(/;\s*SameSite=Strict/i);
    expect(setCookie).toMatch(/;\s*Path=\//i);
    expect(setCookie).not.toContain(TOKEN);
    expect(setCookie).not.toContain(encodeURIComponent(TOKEN));
    expect(JSON.stringify(h.logs)).not.toContain(TOKEN);
  });

  it("accepts the cookie afterwards, for the API and for media", async () => {
    const cookie = await signIn();
    const state = await h.get("/api/studio/session", { cookie });
    expect(await state.json()).toEqual({ required: true, authenticated: true });

    const page = await h.get("/api/studio/generations", { cookie });
    expect(page.status).toBe(200);
    expect(generationPageSchema.parse(await page.json()).items.length).toBeGreaterThan(0);
    const media = await h.get(imageUrl, { cookie });
    expect(media.status).toBe(200);
    expect(media.headers.get("content-type")).toBe("image/png");

    const created = await h.postJson("/api/studio/images", { prompt: "with a cookie", model: "m" }, { cookie });
    expect(created.status).toBe(201);
  });

  it("still requires the CSRF header for a cookie session", async () => {
    const cookie = await signIn();
    await expectError(await h.postJson("/api/studio/images", { prompt: "csrf with cookie", model: "m" }, { cookie, ...NO_CSRF_HEADER }), 403, "forbidden");
  });

  it("refuses a tampered or stale cookie", async () => {
    const cookie = await signIn();
    await expectError(await h.get("/api/studio/config", { cookie: `${cookie.slice(0, -2)}xx` }), 401, "unauthorized");
    await expectError(await h.get("/api/studio/config", { cookie: `${SESSION_COOKIE}=${TOKEN}` }), 401, "unauthorized");
  });

  it("signs out: DELETE /api/studio/session clears the cookie", async () => {
    const cookie = await signIn();
    const response = await h.delete("/api/studio/session", { cookie });
    expect(response.status).toBe(204);
    expect(response.headers.get("set-cookie")).toMatch(new RegExp(`^${SESSION_COOKIE}=;.*Max-Age=0`, "i"));
  });

  it("accepts Authorization: Bearer <token> on the provider paths, and refuses a wrong one", async () => {
    const bearer = { authorization: `Bearer ${TOKEN}`, ...NO_CSRF_HEADER };
    const submitted = await h.postJson(providerPaths.videos, { prompt: "script video", model: "v", size: SMALL_VIDEO_SIZE }, bearer);
    expect(submitted.status).toBe(200);
    const { id } = taskAcceptanceSchema.parse(await submitted.json());
    const status = await h.get(providerPaths.video(id), bearer);
    expect(status.status).toBe(200);
    expect(videoTaskRecordSchema.parse(await status.json()).id).toBe(id);
    expect((await h.get(imageUrl, bearer)).status).toBe(200);

    await expectError(await h.get(providerPaths.video(id), { authorization: "Bearer wrong-token-000000" }), 401, "unauthorized");
    await expectError(await h.postJson(providerPaths.images, { prompt: "x", model: "m" }, { authorization: "Bearer wrong-token-000000", ...NO_CSRF_HEADER }), 401, "unauthorized");
    await expectError(await h.get(providerPaths.video(id), { authorization: `Basic ${Buffer.from(`u:${TOKEN}`).toString("base64")}` }), 401, "unauthorized");
  });

  it("keeps /healthz open", async () => {
    const response = await h.get("/healthz");
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ ok: true });
  });

  it("lets the provider's webhook in without a session or the CSRF header; its path token is the credential", async () => {
    const submitted = await h.postJson("/api/studio/videos", { prompt: "webhook target", model: "v", size: SMALL_VIDEO_SIZE }, { authorization: `Bearer ${TOKEN}` });
    expect(submitted.status).toBe(202);
    const generation = generationSchema.parse(await submitted.json());
    const token = webhookTokenOf(h, generation.id);
    const payload = (id: string): TaskResult => ({
      id,
      object: "task_result",
      created: Math.floor(Date.now() / 1000),
      status: "failed",
      result: { images: [] },
      error: "forged",
    });
    const provider = { ...NO_CSRF_HEADER, "content-type": "application/json" };

    await expectError(await h.postJson("/api/studio/webhooks/not-a-real-token", payload(generation.providerTaskId ?? ""), provider), 404, "not_found");
    await expectError(await h.postJson(`/api/studio/webhooks/${token}`, payload("999"), provider), 400, "invalid_body");
    const accepted = await h.postJson(`/api/studio/webhooks/${token}`, payload(generation.providerTaskId ?? ""), provider);
    expect(accepted.status).toBe(204);
    // The payload is only a hint: the ledger follows the provider's own answer, not the forged "failed".
    const settled = await h.settleVideo(generation.id);
    expect(settled.status).toBe("success");
  });
});

/** The per-task webhook token is not part of any API answer; read it from the ledger file. */
function webhookTokenOf(h: StudioHarness, generationId: string): string {
  const db = new BetterSqlite3(h.pathIn("ledger.sqlite"), { readonly: true, fileMustExist: true });
  try {
    const row = db.prepare<[string], { webhook_token: string | null }>("SELECT webhook_token FROM generations WHERE id = ?").get(generationId);
    if (!row?.webhook_token) throw new Error("no webhook token");
    return row.webhook_token;
  } finally {
    db.close();
  }
}
