/** A message names at most this many offending fields, and counts the rest (contract §2, bounded work). */
export const MAX_LISTED_FIELDS = 10;
/** One listed item is cut here: ten of them stay well within the 16 KB an error body may take. */
const MAX_ITEM_CHARACTERS = 1000;

/** An item cut to MAX_ITEM_CHARACTERS (a field named by a client's key may be of any length). */
function cut(item: string): string {
  return item.length > MAX_ITEM_CHARACTERS ? `${item.slice(0, MAX_ITEM_CHARACTERS)}…` : item;
}

/**
 * Problems as one message: the first MAX_LISTED_FIELDS, apart by "; ", then "… and N more" for the
 * rest (`total`: how many there are in all, when only the first were kept).
 */
export function listAtMost(items: readonly string[], total = items.length): string {
  const shown = items.slice(0, MAX_LISTED_FIELDS).map(cut);
  const rest = Math.max(0, total - shown.length);
  return rest > 0 ? `${shown.join('; ')}; … and ${rest} more` : shown.join('; ');
}

/** Collects problems in order, keeping only the first MAX_LISTED_FIELDS and counting every one. */
export class ProblemList {
  private readonly kept: string[] = [];
  private counted = 0;

  add(problems: readonly string[]): void {
    for (const problem of problems) {
      if (this.kept.length < MAX_LISTED_FIELDS) this.kept.push(problem);
      this.counted++;
    }
  }

  get count(): number {
    return this.counted;
  }

  message(): string {
    return listAtMost(this.kept, this.counted);
  }
}
