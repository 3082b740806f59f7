// A pure function of few distinct inputs, remembered: for values the reference works out again
// on every answer (timestamps, node ids, origins). At most `max` are kept, all forgotten together
// when full, so input from clients (a Host header) cannot grow it without bound.

export function boundedMemo<Key, Value>(max: number, compute: (key: Key) => Value): (key: Key) => Value {
  const kept = new Map<Key, Value>();
  return (key) => {
    let value = kept.get(key);
    if (value === undefined) {
      if (kept.size >= max) kept.clear();
      kept.set(key, (value = compute(key)));
    }
    return value;
  };
}
