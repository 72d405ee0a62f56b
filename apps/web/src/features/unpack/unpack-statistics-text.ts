/** Returns per 100 orders shipped, in words; none shipped has no rate. */
export const rateText = (returns: number, shipped: number): string =>
  shipped === 0 ? '—' : `${(Math.round((returns / shipped) * 1000) / 10).toFixed(1)} %`;
