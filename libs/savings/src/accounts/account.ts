export interface Account {
  accountNumber: string;
  ownerPersonalNumber: string;
  name: string;
  currency: string;
  /** Exact decimal text, e.g. "5000.00". */
  balance: string;
  /** The balance less signed transfers due today or earlier that are not yet booked. */
  availableBalance: string;
}

export interface OpenAccount {
  name: string;
  currency: string;
  /** In minor units (öre), exact. */
  balanceMinor: bigint;
  /** Given by an admin or a fixture; generated when absent. */
  accountNumber?: string;
}
