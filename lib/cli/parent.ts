/**
 * A command npm started (`npx express-odata-v2 serve`, `npm exec`, an `npm run`/`npm start`
 * script) runs under a shell npm spawned (`sh -c 'express-odata-v2 serve ...'`). npm passes the
 * SIGINT or SIGTERM it gets to that shell only, and a POSIX shell such as dash dies of it without
 * passing it on: the server would be left running, adopted by init. So under a package manager
 * the command also stops when its parent process goes away, which it sees as a change of
 * `process.ppid` (the orphan's new parent is init or a subreaper).
 */

/** How `watchParent` reads the parent's process id, and how often (specs pass their own). */
export interface ParentWatchOptions {
  readonly parentId?: () => number;
  readonly intervalMs?: number;
}

/** Checking twice a second stops an orphaned server well within a container's stop grace period (10 s in Docker). */
const INTERVAL_MS = 500;

/**
 * Call `onGone` once when the parent process ends, if a package manager started this process
 * (npm, yarn and pnpm set `npm_lifecycle_event` for what they run); returns a function that stops
 * watching. The timer never keeps the process alive by itself.
 */
export function watchParent(env: Readonly<Record<string, string | undefined>>, onGone: () => void, options: ParentWatchOptions = {}): () => void {
  if (env.npm_lifecycle_event === undefined) return () => undefined;
  const parentId = options.parentId ?? (() => process.ppid);
  const parent = parentId();
  const timer = setInterval(() => {
    if (parentId() === parent) return;
    clearInterval(timer);
    onGone();
  }, options.intervalMs ?? INTERVAL_MS);
  timer.unref();
  return () => clearInterval(timer);
}
