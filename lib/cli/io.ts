import { InterruptedError } from './errors';

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
  /** Standard input, where `user add` reads a password (typed without echo at a terminal); none: nothing to read. */
  readonly stdin?: NodeJS.ReadableStream & { readonly isTTY?: boolean; setRawMode?(raw: boolean): unknown };
  /**
   * Aborted when the user stops the process (Ctrl-C) before the command is done: the command
   * stops at its next step, writes nothing more and closes the database (the reason is the signal).
   */
  readonly signal?: AbortSignal;
}

/** Stop here when the user asked to: an `InterruptedError` the command line exits with 128 + the signal's number. */
export function throwIfInterrupted(io: CliIO): void {
  if (io.signal?.aborted === true) throw new InterruptedError(io.signal.reason);
}
