export const MAX_MILESTONES = 50;
export const MAX_MILESTONE_LENGTH = 100;

/** The milestone names of a comma-separated list, each trimmed of surrounding spaces. */
export const splitMilestones = (value: string) => value.split(',').map((name) => name.trim());

/**
 * What is wrong with a list of milestone names, or undefined: each starts with an uppercase letter,
 * none is empty, none repeats (case-sensitive: `Won` and `WON` are different milestones).
 */
export function milestonesProblem(names: string[]): string | undefined {
  if (names.length > MAX_MILESTONES) return `must hold at most ${MAX_MILESTONES} milestones`;
  if (names.some((name) => name === '')) return 'must not hold empty milestone names (check for doubled or trailing commas)';
  const long = names.find((name) => name.length > MAX_MILESTONE_LENGTH);
  if (long) return `milestone "${long.slice(0, 20)}…" is longer than ${MAX_MILESTONE_LENGTH} characters`;
  const lower = names.find((name) => !/^\p{Lu}/u.test(name));
  if (lower) return `milestone "${lower}" must start with an uppercase letter`;
  const repeated = names.find((name, i) => names.indexOf(name) !== i);
  if (repeated) return `milestone "${repeated}" is listed twice`;
  return undefined;
}
