/**
 * The command line's options as a table: each option's spelling, kind and help line, from which
 * both `util.parseArgs`'s configuration and each command's `--help` text are made, so the two
 * cannot disagree. Values are checked here (numbers, `--key table=columns`); a bad one is a
 * UsageError with one line that names the option.
 */
import { parseArgs } from 'util';
import { messageOf, UsageError } from './errors';

/** One option of a command. */
export interface OptionSpec {
  readonly name: string;
  readonly short?: string;
  readonly kind: 'string' | 'boolean';
  /** The value's placeholder in the help (`<n>`). */
  readonly value?: string;
  /** May be given more than once. */
  readonly multiple?: boolean;
  readonly help: string;
}

/** A help section: a title and its options. */
export interface OptionGroup {
  readonly title: string;
  readonly options: readonly OptionSpec[];
}

const HELP: OptionSpec = { name: 'help', short: 'h', kind: 'boolean', help: 'Show this help.' };

/** The options that choose and read the database, shared by serve and introspect. */
export const DATABASE_OPTIONS: readonly OptionSpec[] = [
  {
    name: 'db',
    kind: 'string',
    value: '<url|file|folder>',
    help: 'A PostgreSQL server (postgres://user:password@host:5432/name), a SQLite database file or a PGlite data folder. Default: the DATABASE_URL environment variable (which keeps a password out of the process list).',
  },
  { name: 'schema', kind: 'string', value: '<name>', multiple: true, help: 'A schema to read (repeatable; default public).' },
  {
    name: 'include',
    kind: 'string',
    value: '<pattern>',
    multiple: true,
    help: 'Only the tables and views matching (repeatable; table or schema.table, with * and ?).',
  },
  { name: 'exclude', kind: 'string', value: '<pattern>', multiple: true, help: 'Leave out the tables and views matching (repeatable).' },
  {
    name: 'key',
    kind: 'string',
    value: '<table>=<columns>',
    multiple: true,
    help: 'Key columns (comma-separated) of a view or of a table without a primary key (repeatable); checked at start for two rows sharing a key unless a unique index backs it.',
  },
  {
    name: 'version-column',
    kind: 'string',
    value: '<name>',
    multiple: true,
    help: 'Columns that are concurrency tokens (repeatable; default version, row_version).',
  },
  {
    name: 'etag',
    kind: 'string',
    value: 'xmin|<column>|none',
    help: "The ETag of each table: xmin (default), its row version, unless it has a version column; <column>, that column where a table has it, else xmin; none, no row version and no version column by name. A view's ETag can only be a version column.",
  },
  { name: 'namespace', kind: 'string', value: '<name>', help: 'The namespace of the model (default Database).' },
  {
    name: 'names',
    kind: 'string',
    value: '<odata|sql>',
    help: 'odata (default): sets Orders, types Order, properties OrderID, navigations by role; sql: the SQL names as they are.',
  },
  {
    name: 'annotations',
    kind: 'string',
    value: '<fiori|none>',
    help: 'fiori (default): labels, value lists, line items, header info and the other annotations a SAP Fiori elements app needs; none: the plain model.',
  },
];

/** What `parseOptions` returns: the values by option name (a list for a repeatable option). */
export type ParsedOptions = Readonly<Record<string, string | boolean | readonly (string | boolean)[] | undefined>>;

/** Parse `args` against the groups' options (and --help); no positional arguments. */
export function parseOptions(command: string, args: readonly string[], groups: readonly OptionGroup[]): ParsedOptions {
  return parse(command, args, groups, false).options;
}

/** Parse `args` against the groups' options (and --help), with positional arguments (`user add <file> <name>`). */
export function parseArguments(command: string, args: readonly string[], groups: readonly OptionGroup[]): { options: ParsedOptions; positionals: string[] } {
  return parse(command, args, groups, true);
}

function parse(
  command: string,
  args: readonly string[],
  groups: readonly OptionGroup[],
  allowPositionals: boolean,
): { options: ParsedOptions; positionals: string[] } {
  const options: Record<string, { type: 'string' | 'boolean'; short?: string; multiple?: boolean }> = {};
  for (const spec of [...groups.flatMap((group) => group.options), HELP]) {
    options[spec.name] = { type: spec.kind, ...(spec.short === undefined ? {} : { short: spec.short }), ...(spec.multiple === true ? { multiple: true } : {}) };
  }
  try {
    const { values, positionals } = parseArgs({ args: [...args], options, allowPositionals, strict: true });
    return { options: values, positionals };
  } catch (error) {
    const message = messageOf(error).replace(/\.? ?This command does not take positional arguments/, '');
    throw new UsageError(`${command}: ${message.replace(/\.$/, '')}`, command);
  }
}

/** A string option's value, or undefined. */
export function stringOption(options: ParsedOptions, name: string): string | undefined {
  const value = options[name];
  return typeof value === 'string' ? value : undefined;
}

/** A repeatable option's values (none: empty). */
export function listOption(options: ParsedOptions, name: string): readonly string[] {
  const value = options[name];
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}

/** An integer option within [min, max], or the fallback. */
export function integerOption(command: string, options: ParsedOptions, name: string, min: number, max: number, fallback?: number): number | undefined {
  const text = stringOption(options, name);
  if (text === undefined) return fallback;
  const value = /^\d+$/.test(text) ? Number(text) : NaN;
  if (!Number.isSafeInteger(value) || value < min || value > max)
    throw new UsageError(`${command}: --${name} must be an integer from ${min} to ${max}, got '${text}'`, command);
  return value;
}

/** `--names odata|sql`, or undefined (introspect's default, odata). */
export function namesOption(command: string, options: ParsedOptions): 'odata' | 'sql' | undefined {
  const text = stringOption(options, 'names');
  if (text === undefined || text === 'odata' || text === 'sql') return text;
  throw new UsageError(`${command}: --names must be odata or sql, got '${text}'`, command);
}

/** `--annotations fiori|none`, or undefined (introspect's default, fiori). */
export function annotationsOption(command: string, options: ParsedOptions): 'fiori' | 'none' | undefined {
  const text = stringOption(options, 'annotations');
  if (text === undefined || text === 'fiori' || text === 'none') return text;
  throw new UsageError(`${command}: --annotations must be fiori or none, got '${text}'`, command);
}

/** `--key orders=id` and `--key sales.lines=order_id,line_no` as introspect's keys option. */
export function keysOption(command: string, options: ParsedOptions): Record<string, string[]> {
  const keys: Record<string, string[]> = {};
  for (const text of listOption(options, 'key')) {
    const match = /^([^=]+)=([^,]+(?:,[^,]+)*)$/.exec(text);
    if (match === null) throw new UsageError(`${command}: --key expects <table>=<column>[,<column>...], got '${text}'`, command);
    keys[match[1].trim()] = match[2].split(',').map((column) => column.trim());
  }
  return keys;
}

/** Help lines are wrapped to this many columns. */
const HELP_WIDTH = 96;

/** `text` in lines of at most `width` characters (words are not split). */
function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line !== '' && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else {
      line = line === '' ? word : `${line} ${word}`;
    }
  }
  return [...lines, line];
}

/** The help text of a command's options, grouped, with aligned and wrapped descriptions. */
export function optionsHelp(groups: readonly OptionGroup[]): string {
  const spelled = (spec: OptionSpec): string =>
    `${spec.short === undefined ? '    ' : `-${spec.short}, `}--${spec.name}${spec.value === undefined ? '' : ` ${spec.value}`}`;
  const all = [...groups, { title: 'Other', options: [HELP] }];
  const width = Math.max(...all.flatMap((group) => group.options.map((spec) => spelled(spec).length))) + 4;
  const describe = (spec: OptionSpec): string =>
    wrap(spec.help, HELP_WIDTH - width)
      .map((line, i) => (i === 0 ? `  ${spelled(spec).padEnd(width - 2)}${line}` : `${' '.repeat(width)}${line}`))
      .join('\n');
  return all.map((group) => [`${group.title}:`, ...group.options.map(describe)].join('\n')).join('\n\n');
}

/** What `--etag` and `--version-column` ask of introspection: the row-version ETag and the version column names. */
export function etagOption(
  command: string,
  options: ParsedOptions,
): { readonly etag: 'xmin' | 'none'; readonly versionColumns: readonly string[] | undefined } {
  const etag = stringOption(options, 'etag') ?? 'xmin';
  const named = listOption(options, 'version-column');
  if (etag.trim() === '') throw new UsageError(`${command}: --etag expects xmin, a column name or none`, command);
  if (etag === 'none') return { etag: 'none', versionColumns: named };
  if (etag === 'xmin') return { etag: 'xmin', versionColumns: named.length === 0 ? undefined : named };
  return { etag: 'xmin', versionColumns: [etag, ...named] };
}
