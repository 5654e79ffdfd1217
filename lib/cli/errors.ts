/**
 * The command line's failures as one line each: what went wrong, in words a user can act on,
 * never a stack trace. A usage error (exit 2) points to `--help`; every other failure exits 1.
 * Database errors are recognised by their driver codes and SQLSTATEs. Every caught value is read
 * through describeCaught: it may be anything, and describing it must not throw.
 */
import { describeCaught } from '../util';

/** A mistake in the arguments: exit code 2, with a pointer to the command's help. */
export class UsageError extends Error {
  constructor(
    message: string,
    readonly command?: string,
  ) {
    super(message);
    this.name = 'UsageError';
  }
}

/** A failure with a message made for the user: exit code 1. */
export class CliError extends Error {
  constructor(message: string, options?: { readonly cause?: unknown }) {
    super(message, options);
    this.name = 'CliError';
  }
}

/** Exit codes of a process ended by a signal, by the shells' convention (128 + the signal's number). */
const SIGNAL_EXIT_CODES: Readonly<Record<string, number>> = { SIGINT: 130, SIGTERM: 143 };

/** The user stopped the command (Ctrl-C) before it was done: exit code 130 (SIGINT) or 143 (SIGTERM). */
export class InterruptedError extends Error {
  readonly exitCode: number;
  constructor(readonly signal: unknown) {
    super(`stopped by ${String(signal)} before the command was done`);
    this.name = 'InterruptedError';
    this.exitCode = SIGNAL_EXIT_CODES[String(signal)] ?? 130;
  }
}

/**
 * An error's message, else what it is. Read as a field, not through `instanceof Error`: errors
 * made in another realm (a VM context, a worker) are not instances of this realm's Error.
 */
export function messageOf(error: unknown): string {
  const described = describeCaught(error);
  return described.message ?? described.summary;
}

/** The error and its causes, outermost first (drivers and Kysely wrap each other), each described once. */
function chain(error: unknown): ReturnType<typeof describeCaught>[] {
  const errors: ReturnType<typeof describeCaught>[] = [];
  for (let current = error; current !== undefined && current !== null && errors.length < 10;) {
    const described = describeCaught(current);
    errors.push(described);
    // AggregateError: one per address tried (IPv4 and IPv6).
    errors.push(...described.errors.map(describeCaught));
    current = described.cause;
  }
  return errors;
}

/** `host:port/name` of a database URL, without the user's password. */
export function describeUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.hostname}${parsed.port === '' ? '' : `:${parsed.port}`}${parsed.pathname === '/' ? '' : parsed.pathname}`;
  } catch {
    return 'the database';
  }
}

/** The one line for a failure to reach or use the database at `where`. */
export function describeDatabaseError(error: unknown, where: string): string {
  for (const cause of chain(error)) {
    const code = cause.code;
    const message = cause.message ?? cause.summary;
    switch (code) {
      case 'ECONNREFUSED':
        return `Cannot connect to ${where}: connection refused (is the server running, on that host and port?).`;
      case 'ENOTFOUND':
      case 'EAI_AGAIN':
        return `Cannot connect to ${where}: the host name is not known.`;
      case 'ETIMEDOUT':
      case 'EHOSTUNREACH':
      case 'ENETUNREACH':
        return `Cannot connect to ${where}: the host does not answer.`;
      case 'ECONNRESET':
        return `Cannot connect to ${where}: the server closed the connection (does it expect TLS? add ?sslmode=require).`;
      case '28P01':
      case '28000':
        return `${where} refused the credentials: ${message}.`;
      case '3D000':
        return `${where}: ${message}.`;
      case '42501':
        return `${where}: permission denied (${message}).`;
      case '57P03':
        return `${where} is starting up or shutting down; try again.`;
      default:
        break;
    }
    if (cause.name === 'SqlAcquireTimeoutError') return `${where} did not answer in time: ${message}`;
  }
  return `${where}: ${messageOf(error)}`;
}

/** Any failure as one line (multi-line messages joined), for errors nothing above recognised. */
export function oneLine(error: unknown): string {
  return messageOf(error)
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '')
    .join(' ');
}
