/**
 * The shape of the suite: cases (a name, the rule they check, and the work), grouped by topic,
 * and groups gathered in units that share one provider. Read-only groups share the `reads`
 * unit; each writing unit starts from a fresh provider. Which groups run follows from the
 * provider's capabilities.
 */
import type { ServiceClient } from './client';
import type { RetryControl } from './retry';
import type { ConformanceRuleId } from './rules';
import type { ProviderCapabilities, RowVisibility } from './types';

/** Capabilities with every default applied. */
export interface Capabilities {
  readonly writes: boolean;
  readonly links: boolean;
  readonly media: boolean;
  readonly openTypes: boolean;
  readonly storeDefaults: boolean;
  readonly rowVisibility: boolean;
}

/** Defaults applied: what is not declared missing is there; no writes means no link or media writes either. */
export function resolveCapabilities(declared: ProviderCapabilities | undefined): Capabilities {
  const writes = declared?.writes ?? true;
  return {
    writes,
    links: writes && (declared?.links ?? true),
    media: declared?.media ?? true,
    openTypes: declared?.openTypes ?? true,
    storeDefaults: declared?.storeDefaults ?? false,
    rowVisibility: declared?.rowVisibility ?? false,
  };
}

/**
 * What a case works with: the service under test (unpaged and paged mounts), the capabilities,
 * whether the setup stored the exact (microsecond) timestamps, and the control of a retried transaction.
 */
export interface CaseContext {
  readonly service: ServiceClient;
  readonly paged: ServiceClient;
  readonly capabilities: Capabilities;
  readonly exactTimestamps: boolean;
  readonly retry: RetryControl;
  /** The setup's two request contexts and what each may see (`rowVisibility`). */
  readonly visibility: RowVisibility | undefined;
}

/** One check of the suite. */
export interface CaseDefinition {
  /** The test's name: what is sent or what behaviour is checked. */
  readonly name: string;
  /** The rule it checks (a RuleViolation inside may name a more specific one). */
  readonly rule: ConformanceRuleId;
  readonly run: (context: CaseContext) => Promise<void>;
}

/** Cases on one topic. */
export interface GroupDefinition {
  readonly name: string;
  readonly cases: readonly CaseDefinition[];
}

/** Groups that share one provider setup. */
export interface UnitDefinition {
  /** `reads`, or the writing topic. */
  readonly name: string;
  readonly groups: readonly GroupDefinition[];
}

/** A case of `rule` named `name`. */
export function check(name: string, rule: ConformanceRuleId, run: (context: CaseContext) => Promise<void>): CaseDefinition {
  return { name, rule, run };
}
