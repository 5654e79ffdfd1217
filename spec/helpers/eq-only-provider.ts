/**
 * A provider that translates only `eq` (over plain properties and literals) and leaves the rest of
 * `$filter` to the service through `QueryResult.applied`: the pushdown contract as a provider
 * author uses it. It wraps MemoryProvider, handing it the pushed part only. `ordered`: it applies
 * the order and the skiptoken too; else it streams the entities in reverse store order and leaves
 * the order, the skiptoken, skip/top and the count to the service.
 */
import type { DataProvider, EdmModel, ExprNode, MemoryProvider, QueryRequest, QueryResult, RequestContext } from '../../lib';
import { navigationExpansion, splitFilter } from '../../lib';

/** The only nodes the store translates: `eq`, literals, and properties of the entity itself. */
function eqOnly(node: ExprNode): boolean {
  switch (node.kind) {
    case 'Literal':
      return true;
    case 'Member':
      return node.base === undefined && (node.steps ?? []).every((step) => step.kind === 'Property');
    case 'Binary':
      return node.operator === 'eq';
    default:
      return false;
  }
}

async function* reversed<T>(items: readonly T[] | AsyncIterable<T>): AsyncGenerator<T> {
  const all: T[] = [];
  for await (const item of items) all.push(item);
  for (let i = all.length - 1; i >= 0; i--) yield all[i];
}

export class EqOnlyProvider implements DataProvider {
  /** The requests the wrapped provider received (what was pushed). */
  readonly pushed: QueryRequest[] = [];

  constructor(
    private readonly inner: MemoryProvider,
    private readonly model: EdmModel,
    private readonly ordered: boolean,
  ) {}

  async query(request: QueryRequest, context: RequestContext): Promise<QueryResult> {
    const { pushed, residual } = splitFilter(request.filter, eqOnly);
    if (residual === undefined && this.ordered) {
      this.pushed.push(request);
      return this.inner.query(request, context);
    }
    // The evaluator reads what the residual (and an order left to it) navigates to, and every property.
    const reads = [...(residual === undefined ? [] : [residual]), ...(this.ordered ? [] : request.orderBy.map((item) => item.expression))];
    const needed = navigationExpansion(reads, request.entitySet, this.model).filter(
      (item) => !request.selectExpand.expand.some((asked) => asked.property === item.property),
    );
    // The service counts what passes the residual: it then needs every entity, the skiptoken not applied.
    const seek = this.ordered && !request.count;
    const inner: QueryRequest = {
      ...request,
      filter: pushed,
      orderBy: this.ordered ? request.orderBy : [],
      skipToken: seek ? request.skipToken : undefined,
      skip: undefined,
      top: undefined,
      count: false,
      selectExpand: { select: undefined, expand: [...request.selectExpand.expand, ...needed] },
    };
    this.pushed.push(inner);
    const result = await this.inner.query(inner, context);
    return {
      entities: this.ordered ? result.entities : reversed(result.entities),
      applied: { residual, orderBy: this.ordered, skipToken: seek, skipTop: false },
    };
  }
}
