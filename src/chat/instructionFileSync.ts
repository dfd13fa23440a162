/**
 * Keeps the store's copy of the workspace's instruction files (AGENTS.md, CLAUDE.md,
 * .github/copilot-instructions.md, .cursor/rules/*.mdc, .continue/rules/*) current: the whole set
 * once, the first time the store is opened in a trusted window, then one file at a time when the
 * watcher sees it change or go. Files are only read, never written. In Restricted Mode nothing is
 * read. Never throws: a failure is logged and the turn goes on with what the store holds.
 * No `vscode` import.
 */
import type { Thresholds } from '../core/thresholds';
import {
	listInstructionFiles,
	readInstructionFile,
	type InstructionLimits,
	type ParsedInstructionFile,
} from '../indexing/instructionFiles';
import { syncInstructionFiles, type InstructionSyncReport } from '../retrieval/instructionRecall';
import type { Store } from '../store/openStore';
import { workspaceId } from '../store/location';
import { errorMessage, type Logger } from './logger';

export interface InstructionFileSyncDeps {
	log: Logger;
	/** Absolute paths of the window's local workspace folders. */
	folders: () => readonly string[];
	isTrusted: () => boolean;
	thresholds: () => Thresholds;
}

export class InstructionFileSync {
	private full: Promise<void> | null = null;
	// One sync at a time, so a watcher event cannot interleave with the first full read.
	private queue: Promise<unknown> = Promise.resolve();

	constructor(private readonly deps: InstructionFileSyncDeps) {}

	/** The first call reads every folder's files into `store`; later calls wait for that one. */
	ensure(store: Store): Promise<void> {
		if (!this.deps.isTrusted()) return Promise.resolve();
		this.full ??= this.serial(async () => {
			for (const root of this.deps.folders()) await this.syncFolder(store, root, null);
		});
		return this.full;
	}

	/** False until the first full read: a change before it needs no sync of its own (the store may not even be open). */
	get started(): boolean {
		return this.full !== null;
	}

	/** A workspace folder was added to the window: read all of its files (once the first read ran). */
	folderAdded(store: Store, root: string): Promise<void> {
		if (!this.deps.isTrusted() || !this.started) return Promise.resolve();
		return this.serial(() => this.syncFolder(store, root, null));
	}

	/** The watcher saw `rel` (workspace-relative, `/`) in folder `root` created, changed or deleted. */
	changed(store: Store, root: string, rel: string): Promise<void> {
		if (!this.deps.isTrusted()) return Promise.resolve();
		return this.serial(() => this.syncFolder(store, root, [rel]));
	}

	private async syncFolder(store: Store, root: string, only: string[] | null): Promise<void> {
		try {
			const limits = this.limits();
			const rels = only ?? (await listInstructionFiles(root));
			const files = new Map<string, ParsedInstructionFile | null>();
			for (const rel of rels) {
				try {
					const parsed = await readInstructionFile(root, rel, limits);
					files.set(rel, parsed);
					for (const n of parsed?.notes ?? []) this.deps.log.info(`instruction files: ${n}`);
				} catch (e) {
					// One unreadable file is that file's failure; its stored sections stay as they were.
					this.deps.log.warn(`instruction files: ${rel} not read: ${errorMessage(e)}`);
				}
			}
			const r = await syncInstructionFiles(store.db, workspaceId(root), files, only === null);
			if (r.added || r.removed) this.deps.log.info(`instruction files: ${describe(r)} (${root})`);
		} catch (e) {
			this.deps.log.warn(`instruction files of ${root} not synced: ${errorMessage(e)}`);
		}
	}

	private limits(): InstructionLimits {
		const t = this.deps.thresholds();
		return { maxBytes: t.instruction_file_max_bytes, maxSectionChars: t.instruction_section_max_chars };
	}

	private serial<T>(run: () => Promise<T>): Promise<T> {
		const next = this.queue.then(run, run);
		this.queue = next.catch(() => undefined);
		return next;
	}
}

function describe(r: InstructionSyncReport): string {
	return `${r.files} file(s), ${r.sections} section(s): ${r.added} written, ${r.removed} replaced or removed, ${r.unchanged} unchanged`;
}
