/**
 * Collects changed paths and hands them over as one batch once events stop for `delayMs` (or at
 * the latest `maxWaitMs` after the first one): a save, a formatter and a git checkout touching
 * 1,000 files become one call. Never two flushes at once — paths that arrive during a flush wait
 * for the next. The clock is injected so tests drive time (no `vscode`).
 */

/** Timers, injectable. */
export interface BatchClock {
	now(): number;
	setTimeout(fn: () => void, ms: number): unknown;
	clearTimeout(handle: unknown): void;
}

/** The real clock. */
export const SYSTEM_CLOCK: BatchClock = {
	now: () => Date.now(),
	setTimeout: (fn, ms) => setTimeout(fn, ms),
	clearTimeout: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
};

/** How the batcher waits; read at every event so a settings change applies at once. */
export interface BatchTiming {
	delayMs: number;
	maxWaitMs: number;
}

/** Debounces paths into batches. */
export class PathBatcher {
	private readonly paths = new Set<string>();
	private firstAt: number | null = null;
	private timer: unknown = null;
	private flushing: Promise<void> | null = null;
	private disposed = false;

	constructor(
		private readonly timing: () => BatchTiming,
		private readonly flush: (paths: string[]) => Promise<void>,
		private readonly clock: BatchClock = SYSTEM_CLOCK,
	) {}

	/** Paths waiting for the next batch. */
	get pending(): number {
		return this.paths.size;
	}

	/** Adds a changed path and (re)schedules the batch. */
	add(path: string): void {
		if (this.disposed) return;
		this.paths.add(path);
		this.firstAt ??= this.clock.now();
		if (!this.flushing) this.schedule();
	}

	/** Drops what is pending (the batcher stays usable). */
	clear(): void {
		this.paths.clear();
		this.firstAt = null;
		if (this.timer !== null) this.clock.clearTimeout(this.timer);
		this.timer = null;
	}

	/** Drops what is pending and ignores every later path. */
	dispose(): void {
		this.disposed = true;
		this.clear();
	}

	/** Resolves when the current flush (if any) has finished. */
	idle(): Promise<void> {
		return this.flushing ?? Promise.resolve();
	}

	private schedule(): void {
		if (this.timer !== null) this.clock.clearTimeout(this.timer);
		const { delayMs, maxWaitMs } = this.timing();
		const now = this.clock.now();
		const due = Math.min(now + delayMs, (this.firstAt ?? now) + maxWaitMs);
		this.timer = this.clock.setTimeout(() => this.fire(), Math.max(0, due - now));
	}

	private fire(): void {
		this.timer = null;
		if (this.disposed || !this.paths.size) return;
		const batch = [...this.paths];
		this.paths.clear();
		this.firstAt = null;
		this.flushing = this.flush(batch)
			.catch(() => undefined) // the flush reports its own errors; a failure must not stop later batches
			.finally(() => {
				this.flushing = null;
				if (this.paths.size && !this.disposed) this.schedule(); // firstAt was set by the add() during the flush
			});
	}
}
