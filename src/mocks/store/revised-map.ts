import { ChargedMap } from '../../gates/memory-budget.js';

/** A ChargedMap that counts its changes: every path that changes the endpoints changes this map. */
export class RevisedMap<K, V> extends ChargedMap<K, V> {
  revision = 0;

  override set(key: K, value: V): this {
    this.revision++;
    return super.set(key, value);
  }

  override delete(key: K): boolean {
    this.revision++;
    return super.delete(key);
  }

  override clear(): void {
    this.revision++;
    super.clear();
  }
}
