/** Where a command writes and what it resolves paths against (the process, or a spec's capture). */
export interface CliIO {
  /** A line of output (stdout): results, the service's address, the request log. */
  out(line: string): void;
  /** A line of diagnostics (stderr): warnings and errors. */
  err(line: string): void;
  /** The folder relative paths (--db folders, --out, --metadata) are read from and written to. */
  readonly cwd: string;
  /** The environment (DATABASE_URL stands in for --db). */
  readonly env: Readonly<Record<string, string | undefined>>;
}
