/**
 * `gatedMemory.memory.writes` (auto | confirm | off) and `gatedMemory.memory.reads` (the tiers
 * recall may read), read on every use so a change applies to the next turn. A bad value falls
 * back to its default and is logged once, never silently ignored.
 */
import * as vscode from 'vscode';
import type { Logger } from '../../chat/logger';
import { parseReadTiers, parseWriteMode, type ReadTier, type WriteMode } from '../../chat/memoryWriteGate';
import { SECTION } from './settings';

export class MemorySettings {
	private lastWarning = '';

	constructor(private readonly log: Logger) {}

	/** The write mode in force (default `auto`). */
	writes(): WriteMode {
		const raw: unknown = vscode.workspace.getConfiguration(SECTION).get('memory.writes');
		const mode = parseWriteMode(raw);
		if (raw !== undefined && raw !== mode)
			this.warn(`gatedMemory.memory.writes: "${String(raw)}" is not auto, confirm or off; using auto`);
		return mode;
	}

	/** The tiers recall may read (default: all). */
	reads(): ReadTier[] {
		const { tiers, invalid } = parseReadTiers(vscode.workspace.getConfiguration(SECTION).get('memory.reads'));
		if (invalid.length)
			this.warn(
				`gatedMemory.memory.reads: ignored ${invalid.map((x) => `"${x}"`).join(', ')} (allowed: research, profile, instructions)`,
			);
		return tiers;
	}

	/** Days without recall before a memory is demoted (0 = off). */
	decayDays(): number {
		const raw: unknown = vscode.workspace.getConfiguration(SECTION).get('memory.decayDays');
		if (raw === undefined || raw === null) return 0;
		if (typeof raw !== 'number' || !Number.isInteger(raw) || raw < 0 || raw > 3650) {
			this.warn(
				`gatedMemory.memory.decayDays: ${JSON.stringify(raw)} is not a whole number of days from 0 to 3650; decay is off`,
			);
			return 0;
		}
		return raw;
	}

	private warn(message: string): void {
		if (message === this.lastWarning) return;
		this.lastWarning = message;
		this.log.warn(message);
	}
}
