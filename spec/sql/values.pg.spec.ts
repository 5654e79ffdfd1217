/**
 * The round trips of round-trips.ts against a real PostgreSQL server through `pg`, with the
 * process in America/New_York and the sessions in Asia/Kathmandu (set per connection).
 */
process.env.TZ = 'America/New_York';

import { createTestDatabase } from '../helpers/postgres-database';
import { postgres } from '../../lib/sql/postgres/server';
import type { SqlDatabase } from '../../lib/sql/database';
import { describeRoundTrips } from './round-trips';

let database: SqlDatabase;
let drop: () => Promise<void>;

beforeAll(async () => {
  const created = await createTestDatabase();
  drop = created.drop;
  const url = new URL(created.url);
  url.searchParams.set('options', '-c TimeZone=Asia/Kathmandu');
  database = postgres(url.toString());
});

afterAll(async () => {
  await database.close();
  await drop();
});

describeRoundTrips(() => database);
