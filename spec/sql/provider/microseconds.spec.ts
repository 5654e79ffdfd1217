/** Paging by microsecond timestamps on PGlite (the cases: microseconds.ts). */
import type { PGlite } from '@electric-sql/pglite';
import { pglite } from '../../../lib/sql/postgres/pglite';
import { openTestPGlite } from '../../helpers/pglite';
import { describeMicrosecondPaging } from './microseconds';

let instance: PGlite | undefined;

afterAll(async () => {
  await instance?.close();
});

describeMicrosecondPaging('PGlite', async () => {
  instance = await openTestPGlite();
  return pglite(instance);
});
