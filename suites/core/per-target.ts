/**
 * State a run keeps per target (or any other owner object), made on first use and gone with its owner: the stacks
 * the run holds, the creates in flight, whose turn it is to install. One WeakMap per piece of state, written once.
 */
export function perTarget<T>(make: () => T): (owner: object) => T {
  const all = new WeakMap<object, T>();
  return (owner) => {
    let value = all.get(owner);
    if (value === undefined) all.set(owner, (value = make()));
    return value;
  };
}

/** `perTarget` of a set per caller role: what the run did as each user against each target. */
export function perTargetAndRole<T>(): (owner: object, role: string) => Set<T> {
  const roles = perTarget(() => new Map<string, Set<T>>());
  return (owner, role) => {
    const byRole = roles(owner);
    let set = byRole.get(role);
    if (!set) byRole.set(role, (set = new Set()));
    return set;
  };
}
