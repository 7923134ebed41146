import type { Database } from "better-sqlite3";

/**
 * Schema changes in order. Step N (0-based) brings `PRAGMA user_version` from N to N + 1.
 * Never edit a step that has shipped; append a new one.
 */
export const migrations: readonly string[] = [
  `
  CREATE TABLE generations (
    id TEXT PRIMARY KEY,
    kind TEXT NOT NULL CHECK (kind IN ('image', 'video')),
    status TEXT NOT NULL CHECK (status IN ('pending', 'processing', 'success', 'failed')),
    prompt TEXT NOT NULL,
    model TEXT NOT NULL,
    params_json TEXT NOT NULL,
    provider_task_id TEXT,
    webhook_token TEXT UNIQUE,
    error_code TEXT,
    error_message TEXT,
    favourite INTEGER NOT NULL DEFAULT 0 CHECK (favourite IN (0, 1)),
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    completed_at INTEGER,
    deadline_at INTEGER,
    task_cost_time REAL,
    next_poll_at INTEGER
  ) STRICT;

  CREATE INDEX generations_newest ON generations (created_at DESC, id DESC);
  CREATE INDEX generations_kind_newest ON generations (kind, created_at DESC, id DESC);
  CREATE INDEX generations_status_newest ON generations (status, created_at DESC, id DESC);
  CREATE INDEX generations_model_newest ON generations (model, created_at DESC, id DESC);
  CREATE INDEX generations_favourite_newest ON generations (created_at DESC, id DESC) WHERE favourite = 1;
  CREATE INDEX generations_provider_task ON generations (provider_task_id) WHERE provider_task_id IS NOT NULL;
  -- The reconciler's "due video tasks" query; without kind leading, SQLite prefers scanning every video row.
  CREATE INDEX generations_unfinished ON generations (kind, created_at, id) WHERE status IN ('pending', 'processing');

  CREATE TABLE generation_references (
    id TEXT PRIMARY KEY,
    generation_id TEXT NOT NULL REFERENCES generations (id) ON DELETE CASCADE,
    position INTEGER NOT NULL,
    mime TEXT NOT NULL,
    name TEXT NOT NULL,
    bytes INTEGER NOT NULL,
    source_url TEXT,
    -- Null for a reference given as a URL the studio forwards without fetching.
    file_path TEXT,
    UNIQUE (generation_id, position)
  ) STRICT;

  -- Lets a delete check whether another generation still uses the same reference file.
  CREATE INDEX generation_references_file ON generation_references (file_path);

  CREATE TABLE generation_outputs (
    generation_id TEXT NOT NULL REFERENCES generations (id) ON DELETE CASCADE,
    idx INTEGER NOT NULL,
    provider_url TEXT NOT NULL,
    provider_cover_url TEXT,
    mime TEXT NOT NULL,
    file_path TEXT,
    cover_path TEXT,
    thumbnail_path TEXT,
    width INTEGER,
    height INTEGER,
    PRIMARY KEY (generation_id, idx)
  ) STRICT, WITHOUT ROWID;

  CREATE TABLE status_changes (
    id INTEGER PRIMARY KEY,
    generation_id TEXT NOT NULL REFERENCES generations (id) ON DELETE CASCADE,
    status TEXT NOT NULL CHECK (status IN ('pending', 'processing', 'success', 'failed')),
    at INTEGER NOT NULL
  ) STRICT;

  CREATE INDEX status_changes_generation ON status_changes (generation_id, at, id);
  `,
];

/** Applies the steps the database has not seen yet, all in one transaction. Returns the resulting version. */
export function runMigrations(db: Database): number {
  const readVersion = () => db.pragma("user_version", { simple: true }) as number;
  const applyPending = db.transaction(() => {
    for (let version = readVersion(); version < migrations.length; version += 1) {
      db.exec(migrations[version] ?? "");
      db.pragma(`user_version = ${version + 1}`);
    }
  });
  // IMMEDIATE takes the write lock up front, so two processes opening the same file cannot both migrate.
  applyPending.immediate();
  return readVersion();
}
