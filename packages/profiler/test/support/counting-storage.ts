import { MemoryProfilerStorage } from '../../src/index.js';
import type { ProfileData, ProfilerStorage, ProfileSearch, ProfileSummary } from '../../src/storage.js';

/** A real memory storage that counts how often it was read, to prove a request never reached it. */
export class CountingStorage implements ProfilerStorage {
  readonly inner = new MemoryProfilerStorage();
  reads = 0;
  finds = 0;

  get size(): number {
    return this.inner.size;
  }
  write(profile: ProfileData): void | Promise<void> {
    return this.inner.write(profile);
  }
  read(token: string): Promise<ProfileData | null> {
    this.reads++;
    return this.inner.read(token);
  }
  has(token: string): boolean {
    return this.inner.has(token);
  }
  find(search: ProfileSearch): Promise<ProfileSummary[]> {
    this.finds++;
    return this.inner.find(search);
  }
  purge(): Promise<void> {
    return this.inner.purge();
  }
}
