/**
 * Runs a write plan (plan.ts) on an open transaction, or on a pooled connection for a plan that
 * writes in one statement: each step's statement in order, its outcome handed to the step. Where
 * the plan runs is the caller's decision; nothing here chooses.
 */
import type { WriteScope } from './links';
import type { DecodedRow } from '../read/projection';
import { StepResults, type StepOutcome, type WritePlan } from './plan';

/** Run `plan`'s steps on `scope.executor`; its answer. */
export async function runPlan<T>(plan: WritePlan<T>, scope: WriteScope, seen: (row: DecodedRow) => void): Promise<T> {
  const results = new StepResults();
  const run = { scope, results, seen };
  for (const step of plan.steps) {
    const statement = step.runsWhen?.(results) === false ? undefined : step.statement(results);
    let outcome: StepOutcome;
    try {
      const result = statement === undefined ? undefined : await statement.$castTo<Record<string, unknown>>().execute(scope.executor);
      outcome = { rows: result?.rows ?? [], changed: Number(result?.numAffectedRows ?? 0n) };
    } catch (error) {
      if (step.handles?.(error, results) !== true) throw error;
      outcome = { rows: [], changed: 0, error };
    }
    results.set(step.id, await step.finish(outcome, run));
  }
  return plan.answer(results);
}
