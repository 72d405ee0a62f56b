/**
 * SQL for a payload of `digits` digits, given as a bigint expression, followed by its Luhn check
 * digit, as text, computed with integer arithmetic (digits from the right, every other one doubled
 * starting with the rightmost, a doubled digit's digits summed): IMEIs and ICCIDs of the data
 * generator, millions per statement.
 */
export function withLuhnSql(payload: string, digits: number): string {
  const terms = Array.from({ length: digits }, (_, k) => {
    const digit = `((${payload}) / ${10n ** BigInt(k)}::bigint % 10)`;
    return k % 2 === 0 ? `(${digit} * 2 % 10 + ${digit} * 2 / 10)` : digit;
  });
  return `((${payload}) * 10 + (10 - (${terms.join(' + ')}) % 10) % 10)::text`;
}
