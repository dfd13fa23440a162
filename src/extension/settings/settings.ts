/**
 * Reads `gatedMemory.*` settings. Thresholds are validated entry by entry against the thresholds
 * table: a bad entry is reported once (warning + log) and falls back to its default, the good
 * entries still apply, so one typo never disables the user's other tuning.
 */
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import {
	DEFAULT_THRESHOLDS,
	resolveThresholds,
	thresholdNames,
	thresholdSpec,
	type ThresholdName,
	type Thresholds,
} from '../../core/thresholds';
import type { Logger } from '../../chat/logger';
import { partitionOverrides } from './thresholdOverrides';

/** The settings section; every key lives under it. */
export const SECTION = 'gatedMemory';

/** One row of Inspect Memory State's thresholds table. */
export interface ThresholdRow {
	name: ThresholdName;
	value: number;
	default: number;
	source: 'setting' | 'default';
	rationale: string;
}

/** Caches the resolved thresholds and re-reads them when the setting changes. */
export class ThresholdSettings implements vscode.Disposable {
	private cached: Thresholds | undefined;
	private overrides: Record<string, number> = {};
	private lastWarning = '';
	private readonly subscription: vscode.Disposable;

	constructor(private readonly log: Logger) {
		this.subscription = vscode.workspace.onDidChangeConfiguration((e) => {
			if (e.affectsConfiguration(`${SECTION}.thresholds`)) this.cached = undefined;
		});
	}

	/** The thresholds in force: defaults with the valid overrides applied. */
	current(): Thresholds {
		if (this.cached) return this.cached;
		const raw: unknown = vscode.workspace.getConfiguration(SECTION).get('thresholds');
		const { valid, errors } = partitionOverrides(raw);
		this.report(errors);
		const resolved = resolveThresholds(valid);
		// `valid` passed entry by entry, so this cannot fail; defaults keep the panel working if it does.
		this.cached = resolved.ok ? resolved.value : DEFAULT_THRESHOLDS;
		this.overrides = resolved.ok ? valid : {};
		return this.cached;
	}

	/** Every threshold with its value, default, source and rationale. */
	rows(): ThresholdRow[] {
		const values = this.current();
		return thresholdNames().map((name) => ({
			name,
			value: values[name],
			default: DEFAULT_THRESHOLDS[name],
			source: Object.prototype.hasOwnProperty.call(this.overrides, name) ? 'setting' : 'default',
			rationale: thresholdSpec(name).rationale,
		}));
	}

	dispose(): void {
		this.subscription.dispose();
	}

	private report(errors: string[]): void {
		const text = errors.join('; ');
		if (!text || text === this.lastWarning) {
			this.lastWarning = text;
			return;
		}
		this.lastWarning = text;
		this.log.warn(`gatedMemory.thresholds: ${text} — using the defaults for those entries`);
		void vscode.window
			.showWarningMessage(
				`Gated Memory: invalid thresholds setting (${text}). Using the defaults for those entries.`,
				'Open Settings',
			)
			.then((choice) => {
				if (choice) void vscode.commands.executeCommand('workbench.action.openSettings', `${SECTION}.thresholds`);
			});
	}
}

/** The store folder in force: the setting, else $GMEM_DB, else ~/.gated-memory/db (CONTRACT.md). */
export function storageFolder(): { path: string; source: 'setting' | 'GMEM_DB' | 'default' } {
	const setting = vscode.workspace.getConfiguration(SECTION).get<string>('storage.path')?.trim();
	if (setting) return { path: setting, source: 'setting' };
	const env = process.env.GMEM_DB?.trim();
	if (env) return { path: env, source: 'GMEM_DB' };
	return { path: path.join(os.homedir(), '.gated-memory', 'db'), source: 'default' };
}

/** The server-mode database URL with any password masked, or null when unset. */
export function databaseUrlForDisplay(): string | null {
	const raw = vscode.workspace.getConfiguration(SECTION).get<string>('database.url')?.trim();
	if (!raw) return null;
	try {
		const url = new URL(raw);
		if (url.password) url.password = '***';
		return url.toString();
	} catch {
		// Not a URL: show only the scheme-less hint, never the raw text (it may hold a password).
		return '(not a valid URL)';
	}
}
