export type LogLevel = "debug" | "info" | "warn" | "error" | "silent";
export type LogFields = Record<string, unknown>;

export interface Logger {
  debug(message: string, fields?: LogFields): void;
  info(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
}

const rank: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 };

/**
 * Structured JSON lines. Every value passes through `redact`, which replaces the provider key and
 * the studio token wherever they appear, so a secret cannot reach a log even by accident.
 */
export function createLogger(level: LogLevel, secrets: string[], write: (line: string) => void = (line) => console.log(line)): Logger {
  const hidden = secrets.filter((secret) => secret.length >= 4);
  const redact = (text: string) => hidden.reduce((result, secret) => result.replaceAll(secret, "[redacted]"), text);
  const emit = (at: LogLevel) => (message: string, fields: LogFields = {}) => {
    if (rank[at] < rank[level]) return;
    write(redact(JSON.stringify({ time: new Date().toISOString(), level: at, message, ...fields }, errorReplacer)));
  };
  return { debug: emit("debug"), info: emit("info"), warn: emit("warn"), error: emit("error") };
}

function errorReplacer(_key: string, value: unknown) {
  return value instanceof Error ? { name: value.name, message: value.message } : value;
}

export const silentLogger: Logger = { debug() {}, info() {}, warn() {}, error() {} };
