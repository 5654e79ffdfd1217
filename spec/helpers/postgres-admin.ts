/**
 * What the outage specs do to a PostgreSQL server besides stopping it: run SQL as its superuser,
 * wait until pg_stat_activity shows a service's backend in a given state (the synchronization
 * point: a statement waiting for a lock, a snapshot held between two chunks), kill backends with
 * pg_terminate_backend, and hold a lock from a connection of their own. Every call opens its own
 * connection, so the helpers work across server restarts.
 */
import { Client } from 'pg';

/** A service's backend as pg_stat_activity shows it. */
export interface Backend {
  readonly pid: number;
  readonly state: string | null;
  readonly waitEventType: string | null;
  readonly query: string;
}

/** Run `text` as the server's superuser on a connection of its own. */
export async function adminQuery<T extends Record<string, unknown>>(url: string, text: string, values: unknown[] = []): Promise<T[]> {
  const client = new Client({ connectionString: url });
  // A connection killed or shut down under a spec must not end the spec's process either.
  client.on('error', () => undefined);
  await client.connect();
  try {
    return (await client.query<T>(text, values)).rows;
  } finally {
    await client.end();
  }
}

/** The backends of `user` (other than ours), by pid. */
export async function backendsOf(url: string, user: string): Promise<Backend[]> {
  const rows = await adminQuery<{ pid: number; state: string | null; wait_event_type: string | null; query: string }>(
    url,
    'select pid, state, wait_event_type, query from pg_stat_activity where usename = $1 and pid <> pg_backend_pid() order by pid',
    [user],
  );
  return rows.map((row) => ({ pid: row.pid, state: row.state, waitEventType: row.wait_event_type, query: row.query }));
}

const nextPoll = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 20));

/** Poll pg_stat_activity until the backends of `user` satisfy `until`; they are returned. A hang is the spec's timeout. */
export async function waitForBackends(url: string, user: string, until: (backends: readonly Backend[]) => boolean): Promise<Backend[]> {
  for (;;) {
    const backends = await backendsOf(url, user);
    if (until(backends)) return backends;
    await nextPoll();
  }
}

/** pg_terminate_backend of each pid, and wait until none of them is left. */
export async function terminate(url: string, user: string, pids: readonly number[]): Promise<void> {
  await adminQuery(url, 'select pg_terminate_backend(pid) from unnest($1::int[]) as pid', [pids]);
  await waitForBackends(url, user, (backends) => backends.every((backend) => !pids.includes(backend.pid)));
}

/** A transaction held open on a connection of its own (a lock), until `release`. */
export interface HeldTransaction {
  /** Commit, and close the connection. */
  release(): Promise<void>;
}

/** BEGIN, run `statements` (`lock table ...`, `select ... for update`), and hold the transaction open. */
export async function holdTransaction(url: string, statements: string): Promise<HeldTransaction> {
  const client = new Client({ connectionString: url });
  client.on('error', () => undefined);
  await client.connect();
  await client.query(`begin; ${statements}`);
  return {
    release: async () => {
      await client.query('commit');
      await client.end();
    },
  };
}
