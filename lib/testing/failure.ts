/**
 * How a case fails: with the rule it checks, the case's name and what was seen. A check inside a
 * case may name a more specific rule than its case (an ordering whose only fault is where the nulls
 * went breaks `orderby.nulls`, not `orderby.values`) by throwing a RuleViolation.
 */
import { describeCaught, isInstanceOf } from '../util';
import { ruleOf } from './rules';
import type { ConformanceRule, ConformanceRuleId } from './rules';

/** Thrown inside a case to report a rule other than the case's own. */
export class RuleViolation extends Error {
  constructor(
    readonly rule: ConformanceRuleId,
    message: string,
  ) {
    super(message);
    this.name = 'RuleViolation';
  }
}

/** A failed conformance case: its message starts with the broken rule. */
export class ConformanceFailure extends Error {
  /** The rule the provider breaks. */
  readonly rule: ConformanceRule;
  /** The case that found it (`reads › $orderby › Rank desc`). */
  readonly caseName: string;
  /** What the case saw, without the rule. */
  readonly detail: string;

  constructor(rule: ConformanceRule, caseName: string, detail: string, cause: unknown) {
    super(`Conformance rule ${rule.id} is broken: ${rule.statement}\n  Case: ${caseName}\n  ${detail.split('\n').join('\n  ')}`);
    this.name = 'ConformanceFailure';
    this.rule = rule;
    this.caseName = caseName;
    this.detail = detail;
    // Kept for debuggers, not enumerable: the message says what a reader needs.
    Object.defineProperty(this, 'cause', { value: cause, enumerable: false, configurable: true });
  }
}

/** The failure for an error a case threw, with what the service logged meanwhile. */
export function failureOf(error: unknown, rule: ConformanceRuleId, caseName: string, logged: readonly string[]): ConformanceFailure {
  const violated = isInstanceOf(error, RuleViolation) ? error.rule : rule;
  const described = describeCaught(error);
  let detail = described.message ?? described.summary;
  if (logged.length > 0)
    detail += `\nThe service logged: ${logged.slice(0, 5).join('\n  ')}${logged.length > 5 ? `\n  ... and ${logged.length - 5} more` : ''}`;
  return new ConformanceFailure(ruleOf(violated), caseName, detail, error);
}
