export function helper(x) { return x * 2; }
