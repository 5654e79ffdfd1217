/**
 * The `$filter` fuzz corpus against SqlProvider, over HTTP: the URI specs' random strings and token
 * soups (spec/uri/expr/fuzz-corpus.ts) and well-typed generated filters and orders
 * (spec/sql/expression-generator.ts, demo Product vocabulary), each sent to MemoryProvider and to
 * SqlProvider serving the same data. Every answer is a result or a 4xx, never a 5xx; no error body
 * carries SQL text; and both providers answer alike (the same data, or the same status and code).
 * Shared by the PGlite spec in `npm test` and the server spec in `npm run test:postgres`.
 */
import { seededRandom } from '../../helpers/random';
import { randomString, tokenSoup } from '../../uri/expr/fuzz-corpus';
import { DEMO_PRODUCT_VOCABULARY, ExpressionGenerator } from '../expression-generator';
import { both, comparable, errorShape, type Answer, type ServicePair } from './support';

/** How many inputs of each kind (the time a run takes grows with them). */
export interface FuzzCounts {
  /** Token soups sent as `$filter`. */
  readonly soups: number;
  /** Random strings sent as `$filter`. */
  readonly strings: number;
  /** Token soups sent as `$orderby`. */
  readonly orderSoups: number;
  /** Generated well-typed filters, each with a generated `$orderby`, `$top` and `$inlinecount`. */
  readonly filters: number;
  /** Generated `$orderby` lists alone. */
  readonly orders: number;
}

/** What a run found. */
export interface FuzzReport {
  /** Requests sent to each provider. */
  readonly requests: number;
  /** Answers by outcome: `200`, `empty` (200 without entities), or the status. */
  readonly outcomes: Record<string, number>;
  /** SqlProvider answers with a 5xx status. */
  readonly serverErrors: string[];
  /** SqlProvider error bodies that name SQL. */
  readonly leaks: string[];
  /** Answers that differ between the providers. */
  readonly mismatches: string[];
  /**
   * The documented difference (docs/sql-provider.md, "Where SQL and the evaluator differ"): a
   * division by zero in an operand whose value cannot matter (a constant `$orderby` item, the
   * other side of a decided and/or, a comparison with null) fails the request in one provider and
   * not in the other. spec/sql/differential.ts checks that case row by row.
   */
  readonly deadDivisions: string[];
}

/** `SQL_FUZZ_SCALE=10 npx jest spec/sql/provider/fuzz.spec.ts` runs ten times the corpus. */
export function scaled(counts: FuzzCounts, scale = Number(process.env.SQL_FUZZ_SCALE ?? '1')): FuzzCounts {
  const factor = Number.isFinite(scale) && scale > 0 ? scale : 1;
  const times = (value: number): number => Math.round(value * factor);
  return {
    soups: times(counts.soups),
    strings: times(counts.strings),
    orderSoups: times(counts.orderSoups),
    filters: times(counts.filters),
    orders: times(counts.orders),
  };
}

/**
 * SQL in a client's error message: statement words, quoted aliases and casts of the generated SQL,
 * placeholders, and the driver's vocabulary. The client's own input, which messages may echo, is
 * removed first.
 */
const SQL_TEXT = /\b(select|from|where|join|case when|collate|coalesce|regexp_replace|sqlstate|postgres|pglite|relation|at or near)\b|"t"\.|::|\$\d|\bt\d*\."/i;

function messageOf(answer: Answer): string {
  try {
    const body = JSON.parse(answer.body) as { error?: { message?: { value?: string }; innererror?: unknown } };
    return `${body.error?.message?.value ?? ''} ${JSON.stringify(body.error?.innererror ?? '')}`;
  } catch {
    return answer.body;
  }
}

function outcome(answer: Answer): string {
  if (answer.status !== 200) return String(answer.status);
  return /"results":\[\]/.test(answer.body) ? 'empty' : '200';
}

/** The requests of a run, in a fixed order for the seed. */
function fuzzRequests(seed: number, counts: FuzzCounts): { input: string; path: string }[] {
  const next = seededRandom(seed);
  const generator = new ExpressionGenerator(seed, DEMO_PRODUCT_VOCABULARY);
  const requests: { input: string; path: string }[] = [];
  const add = (input: string, query: string): void => {
    requests.push({ input, path: `Products?$format=json&${query}` });
  };
  const encode = encodeURIComponent;
  for (let i = 0; i < counts.soups; i++) {
    const text = tokenSoup(next);
    add(text, `$top=20&$filter=${encode(text)}`);
  }
  for (let i = 0; i < counts.strings; i++) {
    const text = randomString(next);
    add(text, `$top=20&$filter=${encode(text)}`);
  }
  for (let i = 0; i < counts.orderSoups; i++) {
    const text = tokenSoup(next);
    add(text, `$top=20&$orderby=${encode(text)}`);
  }
  for (let i = 0; i < counts.filters; i++) {
    const filter = generator.filter();
    const order = generator.orderBy();
    add(`${filter} / ${order}`, `$top=25&$inlinecount=allpages&$filter=${encode(filter)}&$orderby=${encode(order)}`);
  }
  for (let i = 0; i < counts.orders; i++) {
    const order = generator.orderBy();
    add(order, `$top=40&$orderby=${encode(order)}`);
  }
  return requests;
}

/** Send every request of the corpus to both services of `pair` and compare. */
export async function fuzzProviders(pair: ServicePair, seed: number, counts: FuzzCounts): Promise<FuzzReport> {
  const requests = fuzzRequests(seed, counts);
  const report: FuzzReport = { requests: requests.length, outcomes: {}, serverErrors: [], leaks: [], mismatches: [], deadDivisions: [] };
  for (const { input, path } of requests) {
    const { memory, sql } = await both(pair, path);
    const kind = outcome(sql);
    report.outcomes[kind] = (report.outcomes[kind] ?? 0) + 1;
    if (sql.status >= 500) report.serverErrors.push(`${input}\n    ${sql.status} ${sql.body.slice(0, 300)}`);
    if (sql.status >= 400) {
      const message = messageOf(sql).split(input).join('');
      if (SQL_TEXT.test(message)) report.leaks.push(`${input}\n    ${message.slice(0, 300)}`);
    }
    if (JSON.stringify(errorShape(memory)) === JSON.stringify(errorShape(sql)) || sameData(comparable(memory), comparable(sql))) continue;
    if (isDivisionByZero(memory) !== isDivisionByZero(sql) && Math.min(memory.status, sql.status) === 200 && /\b(div|mod)\b/.test(input)) {
      report.deadDivisions.push(input);
    } else {
      report.mismatches.push(`${input}\n    memory: ${memory.status} ${memory.body.slice(0, 400)}\n    sql:    ${sql.status} ${sql.body.slice(0, 400)}`);
    }
  }
  return report;
}

function isDivisionByZero(answer: Answer): boolean {
  return answer.status === 400 && answer.body.includes('"code":"FILTER_DIVISION_BY_ZERO"');
}

function sameData(a: unknown, b: unknown): boolean {
  return JSON.stringify(sortKeys(a)) === JSON.stringify(sortKeys(b));
}

/** JSON with object keys in order (the two services may write members in another order). */
function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value as Record<string, unknown>)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([key, item]) => [key, sortKeys(item)]),
  );
}
