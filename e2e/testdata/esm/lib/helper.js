export function double(x) {
  return x * 2;
}

export default 'default export';
