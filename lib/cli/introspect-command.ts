/**
 * `express-odata-v2 introspect`: write a database's model (metadata.xml) and its SQL mapping
 * (mapping.json), to edit and serve with `serve --metadata --mapping`. Existing files are kept
 * unless --force: they are usually the edited ones.
 */
import { existsSync, writeFileSync } from 'fs';
import { resolve } from 'path';
import { writeEdmx } from '../index';
import { DATABASE_OPTIONS, optionsHelp, stringOption, type OptionGroup, type ParsedOptions } from './arguments';
import { databaseArgument, loadSql, openDatabase } from './database';
import { CliError, oneLine, UsageError } from './errors';
import type { CliIO } from './io';
import { introspectDatabase, modelOptions } from './serve';

/** introspect's options. */
export const INTROSPECT_OPTIONS: readonly OptionGroup[] = [
  { title: 'Database', options: DATABASE_OPTIONS },
  {
    title: 'Output',
    options: [
      { name: 'out', kind: 'string', value: '<file>', help: 'Where the model goes (default metadata.xml).' },
      { name: 'mapping', kind: 'string', value: '<file>', help: 'Where the mapping goes (default mapping.json).' },
      { name: 'force', kind: 'boolean', help: 'Replace the files if they exist.' },
    ],
  },
];

/** introspect's help text. */
export const INTROSPECT_HELP = `Usage: express-odata-v2 introspect --db <url|file|folder> [options]

Read a database's tables, keys, foreign keys and comments and write the OData model
(metadata.xml) and the mapping of its names to tables and columns (mapping.json). Edit both
(rename, drop, relabel) and serve them with:
  express-odata-v2 serve --metadata metadata.xml --mapping mapping.json --db <url|file|folder>

${optionsHelp(INTROSPECT_OPTIONS)}

Example:
  express-odata-v2 introspect --db postgres://app:secret@localhost:5432/shop --schema sales`;

function write(file: string, text: string, cwd: string, force: boolean): void {
  const path = resolve(cwd, file);
  if (!force && existsSync(path)) throw new CliError(`${file} exists; give --force to replace it (it may hold your edits).`);
  try {
    writeFileSync(path, text);
  } catch (error) {
    throw new CliError(`Cannot write ${file}: ${oneLine(error)}`, { cause: error });
  }
}

/** Run introspect; resolves with the exit code. */
export async function introspectCommand(options: ParsedOptions, io: CliIO): Promise<number> {
  const dbSpec = databaseArgument('introspect', options, io);
  const out = stringOption(options, 'out') ?? 'metadata.xml';
  const mappingFile = stringOption(options, 'mapping') ?? 'mapping.json';
  if (resolve(io.cwd, out) === resolve(io.cwd, mappingFile)) throw new UsageError('introspect: --out and --mapping name the same file', 'introspect');
  const force = options.force === true;
  const choices = modelOptions('introspect', options);
  // Checked before the database is read, so a refusal costs nothing.
  for (const file of [out, mappingFile])
    if (!force && existsSync(resolve(io.cwd, file))) throw new CliError(`${file} exists; give --force to replace it (it may hold your edits).`);
  const open = await openDatabase(dbSpec, io.cwd, await loadSql());
  try {
    const { model, mapping } = await introspectDatabase('introspect', open, options, choices, io);
    write(out, writeEdmx(model), io.cwd, force);
    write(mappingFile, `${JSON.stringify(mapping, null, 2)}\n`, io.cwd, force);
    const sets = model.defaultContainer.entitySets.length;
    const associations = model.defaultContainer.associationSets.length;
    io.out(
      `Wrote ${out} (${sets} entity set${sets === 1 ? '' : 's'}, ${associations} association${associations === 1 ? '' : 's'}) and ${mappingFile} from ${open.where}.`,
    );
    return 0;
  } finally {
    await open.db.close();
  }
}
