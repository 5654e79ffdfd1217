/**
 * What the SQLite dialect leaves to the evaluator (its UntranslatableExpressionError reasons), as
 * docs/sql-provider.md lists it: everything else PostgreSQL translates, SQLite translates too.
 */
export const SQLITE_LEFT_TO_EVALUATOR: readonly RegExp[] = [
  /^a cast from Edm\.\w+ to Edm\.Decimal on SQLite$/,
  /^a cast from Edm\.Decimal on SQLite$/,
  /^'(div|mod)' on Edm\.(Single|Double)$/,
  /^Edm\.Decimal as Edm\.(Single|Double) on SQLite$/,
  /^a literal of Edm\.(Single|Double|Time) SQLite cannot hold$/,
];
