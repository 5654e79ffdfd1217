/**
 * `serve --metadata`: the model and mapping from files must fit the database they are served
 * from. checkMapping reads the catalog once at start; each table or column the files name and
 * the database lacks is one `error:` line on stderr, and the command stops with exit code 1
 * before it listens (a service that started would answer 500 to the first client reading the set).
 */
import type { EdmModel } from '../index';
import type { SqlMapping } from '../sql';
import { isInstanceOf } from '../util';
import type { OpenDatabase } from './database';
import { CliError, describeDatabaseError } from './errors';
import type { CliIO } from './io';

/** The files a model was read from, for messages. */
export interface ModelFiles {
  readonly metadata: string;
  /** undefined: the naming conventions map the model. */
  readonly mapping: string | undefined;
}

/** Check that every table and column `mapping` names is in the open database (see the module comment). */
export async function checkModelFits(open: OpenDatabase, model: EdmModel, mapping: SqlMapping, files: ModelFiles, io: CliIO): Promise<void> {
  try {
    await open.sql.checkMapping(open.db, model, mapping);
  } catch (error) {
    if (!isInstanceOf(error, open.sql.SqlMappingError)) throw new CliError(describeDatabaseError(error, open.where), { cause: error });
    for (const problem of error.problems) io.err(`error: ${problem}`);
    const source = files.mapping === undefined ? `${files.metadata} (mapped by the naming conventions)` : `${files.metadata} and ${files.mapping}`;
    const count = error.problems.length;
    throw new CliError(
      `${source} do${files.mapping === undefined ? 'es' : ''} not fit ${open.where}: ${count} table${count === 1 ? '' : 's'} or column${count === 1 ? '' : 's'} named there ${count === 1 ? 'is' : 'are'} missing (listed above). Serve files introspect wrote for this database, or edit them.`,
      { cause: error },
    );
  }
}
