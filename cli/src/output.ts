/** Output helpers: results go to stdout, progress and errors to stderr. */

/**
 * Text from the database made safe for a terminal: control characters (escape sequences that
 * could move the cursor or retitle the window) are shown as "?". Cells are never evaluated.
 */
export function inert(value: unknown): string {
  if (value === null || value === undefined) return "";
  // biome-ignore lint/suspicious/noControlCharactersInRegex: stripping them is the point
  return String(value).replace(/[\u0000-\u001f\u007f-\u009f]/g, "?");
}

export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

export interface Column<T> {
  header: string;
  value: (row: T) => unknown;
  align?: "left" | "right";
  /** Longer cells are cut with an ellipsis (default 40). */
  max?: number;
}

/** A plain text table, columns padded to their widest cell. */
export function formatTable<T>(rows: readonly T[], columns: Column<T>[]): string {
  const cells = rows.map((row) =>
    columns.map((c) => {
      const text = inert(c.value(row));
      const max = c.max ?? 40;
      return text.length > max ? `${text.slice(0, max - 1)}…` : text;
    }),
  );
  const widths = columns.map((c, i) =>
    Math.max(c.header.length, ...cells.map((r) => r[i]!.length)),
  );
  const line = (parts: string[]) =>
    parts
      .map((p, i) =>
        columns[i]!.align === "right" ? p.padStart(widths[i]!) : p.padEnd(widths[i]!),
      )
      .join("  ")
      .trimEnd();
  return [line(columns.map((c) => c.header)), ...cells.map(line)].join("\n");
}

export function printTable<T>(rows: readonly T[], columns: Column<T>[], empty: string): void {
  process.stdout.write(rows.length === 0 ? `${empty}\n` : `${formatTable(rows, columns)}\n`);
}

export interface Progress {
  update(done: number, total: number): void;
  finish(): void;
}

/**
 * Progress on stderr: a redrawn bar on a terminal, plain lines otherwise (logs, pipes, CI), so
 * stdout stays clean for the result.
 */
export function progress(
  label: string,
  stream: NodeJS.WriteStream = process.stderr,
  isTty = Boolean(stream.isTTY),
): Progress {
  let drawn = false;
  let lastLine = "";
  return {
    update(done, total) {
      const pct = total === 0 ? 100 : Math.floor((done / total) * 100);
      const counts = `${done.toLocaleString("en-US")}/${total.toLocaleString("en-US")} rows`;
      if (isTty) {
        const width = 24;
        const filled = Math.round((pct / 100) * width);
        const bar = `${"#".repeat(filled)}${"-".repeat(width - filled)}`;
        stream.write(`\r${label} [${bar}] ${String(pct).padStart(3)}% ${counts}\u001b[K`);
        drawn = true;
      } else {
        const line = `${label}: ${counts} (${pct}%)`;
        if (line !== lastLine) stream.write(`${line}\n`);
        lastLine = line;
      }
    },
    finish() {
      if (isTty && drawn) stream.write("\r\u001b[K");
    },
  };
}
