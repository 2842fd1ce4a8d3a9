import { getHeapStatistics } from 'node:v8';
import { MemoryLimitError, type AllocationMeter } from '@patchbay/jinja';

/** Charges below this add up until they reach it, then the heap is looked at: a look costs about a microsecond. */
const STEP_BYTES = 4 * 1024 * 1024;
/** What of the heap limit a render may fill: the rest is headroom for what the engine allocates uncounted. */
const SHARE = 0.8;

/** `gc`, exposed by `--expose-gc` (the template process is started with it). */
const collect = (globalThis as { gc?: () => void }).gc;

/**
 * The template process's allocation meter: before the engine makes a large value, the heap it would fill is looked
 * at, and a value that would take the process past SHARE of its heap limit (after a collection, since garbage of
 * earlier steps does not count: unlike the engine's default budget, a long render that allocates and drops goes on) is
 * refused with Python's MemoryError: the render ends with a 400 instead of the
 * process running out of memory. Its heap limit (TEMPLATE_MEMORY_MB) is what a render may use, whatever it does.
 */
export class HeapMeter implements AllocationMeter {
  private pending = 0;
  private readonly limit = getHeapStatistics().heap_size_limit * SHARE;

  charge(bytes: number): void {
    this.pending += bytes;
    if (this.pending < STEP_BYTES) return;
    this.pending = 0;
    if (getHeapStatistics().used_heap_size + bytes <= this.limit) return;
    collect?.();
    if (getHeapStatistics().used_heap_size + bytes > this.limit) {
      throw new MemoryLimitError();
    }
  }
}
