export type Reading = { name: string; value: number };

export function describe(r: Reading): string {
  return `${r.name}=${r.value}`;
}
