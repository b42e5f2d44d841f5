/** `value` without its undefined fields: `{a: undefined}` spread into a stored row or patch must not erase `a`. */
export function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
