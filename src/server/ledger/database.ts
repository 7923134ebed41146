import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import BetterSqlite3 from "better-sqlite3";
import type { Database } from "better-sqlite3";
import { runMigrations } from "./migrations";

const BUSY_TIMEOUT_MS = 5000;

/** Opens (creating if needed) the ledger's SQLite file, configures it and brings its schema up to date. */
export function openLedgerDatabase(filePath: string): Database {
  if (filePath !== ":memory:") mkdirSync(dirname(filePath), { recursive: true });
  const db = new BetterSqlite3(filePath);
  try {
    db.pragma("journal_mode = WAL");
    db.pragma("foreign_keys = ON");
    db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    db.pragma("synchronous = NORMAL");
    runMigrations(db);
  } catch (error) {
    db.close();
    throw error;
  }
  return db;
}
