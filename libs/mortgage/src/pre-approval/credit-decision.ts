import type { CreditDecision } from '@app/directory';
import { MAX_DEBT_TO_INCOME } from './pre-approval-status';

export interface DecisionInput {
  /** loan_amount, plus unsecured_loan_amount when accepted with the unsecured loan. */
  debt: number;
  incomes: number[];
  /** The applicants' forced outcomes (sandbox users' credit_decision), if any. */
  forced: Array<CreditDecision | null>;
}

/**
 * Contract §9: an applicant's credit_decision forces the outcome (any REJECTED wins); otherwise
 * REJECTED when the debt exceeds 5.5 times the summed yearly income. Whole SEK: exact integer
 * arithmetic (debt × 2 against income × 11).
 */
export function decideCredit({ debt, incomes, forced }: DecisionInput): CreditDecision {
  if (forced.includes('REJECTED')) return 'REJECTED';
  if (forced.includes('APPROVED')) return 'APPROVED';
  const income = incomes.reduce((sum, value) => sum + value, 0);
  return BigInt(debt) * 2n > BigInt(income) * BigInt(MAX_DEBT_TO_INCOME * 2) ? 'REJECTED' : 'APPROVED';
}
