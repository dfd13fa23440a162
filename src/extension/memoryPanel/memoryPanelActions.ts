/**
 * The memory panel's write actions: forget an item, clear a tier (modal confirmation), export to
 * and import from a JSON file (save / open dialogs, or a path given by the command's caller).
 * Each returns a one-line outcome for the panel; the caller refreshes the panel afterwards.
 * Refused in Restricted Mode.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ForgetTarget, MemoryTier } from '../../core/memoryPanelProtocol';
import { exportMemory, importMemory, parseMemoryExport, type ImportCounts } from '../../store/exportImport';
import { forget } from '../../store/forget';
import { clearTier, forgetProfileKey, forgetResearchMemory, indexedPaths } from '../../store/memoryState';
import type { Store } from '../../store/openStore';

/** What the actions need from the host. */
export interface MemoryActionDeps {
	openStore: () => Promise<Store>;
	workspaceIds: () => string[];
	/** The first workspace folder (default export location), if any. */
	firstFolder: () => vscode.Uri | undefined;
	restricted: () => boolean;
}

/** An action's outcome, shown in the panel; null when the user cancelled. */
export type ActionOutcome = { level: 'info' | 'error'; message: string } | null;

const RESTRICTED: ActionOutcome = {
	level: 'error',
	message: 'Restricted Mode: memory is read-only here. Trust this workspace to change it.',
};

/** Forgets one research memory, one profile key, or one indexed file (asked for when `path` is null). */
export async function forgetItem(deps: MemoryActionDeps, target: ForgetTarget): Promise<ActionOutcome> {
	if (deps.restricted()) return RESTRICTED;
	const store = await deps.openStore();
	if (target.kind === 'research') {
		const n = await forgetResearchMemory(store.db, target.workspaceId, target.docId);
		return { level: 'info', message: n ? 'Forgot the research memory.' : 'That memory was already gone.' };
	}
	if (target.kind === 'profile') {
		const n = await forgetProfileKey(store.db, target.workspaceId, target.key);
		return { level: 'info', message: `Forgot "${target.key}" (${n} value${n === 1 ? '' : 's'}).` };
	}
	const files = await indexedPaths(store.db, deps.workspaceIds());
	const chosen =
		target.path === null
			? await vscode.window.showQuickPick(
					files.map((f) => ({ label: f.path, file: f })),
					{
						title: 'Gated Memory: forget an indexed file',
						placeHolder: files.length ? 'File to remove from the workspace tier' : 'No indexed files',
					},
				)
			: files.map((f) => ({ label: f.path, file: f })).find((f) => f.label === target.path);
	if (!chosen) return target.path === null ? null : { level: 'error', message: `"${target.path}" is not indexed.` };
	const counts = await forget(store.db, { kind: 'path', workspaceId: chosen.file.workspaceId, path: chosen.file.path });
	return {
		level: 'info',
		message: `Forgot ${chosen.file.path} (${counts.chunks} chunks). Re-indexing adds it back unless it is excluded.`,
	};
}

/** Clears a tier for this window's workspaces, after a modal confirmation. */
export async function clearTierConfirmed(deps: MemoryActionDeps, tier: MemoryTier): Promise<ActionOutcome> {
	if (deps.restricted()) return RESTRICTED;
	const choice = await vscode.window.showWarningMessage(
		`Clear the ${tier} tier of this workspace?`,
		{
			modal: true,
			detail:
				'Every stored row of this tier for the open workspace folders is deleted. This cannot be undone (export first to keep a copy).',
		},
		'Clear',
	);
	if (choice !== 'Clear') return null;
	const store = await deps.openStore();
	const n = await clearTier(store.db, deps.workspaceIds(), tier);
	return { level: 'info', message: `Cleared the ${tier} tier (${n} rows).` };
}

/** Exports this window's workspaces to `file` (or where the save dialog says). */
export async function exportToFile(deps: MemoryActionDeps, file?: string): Promise<ActionOutcome> {
	if (deps.restricted()) return RESTRICTED;
	const folder = deps.firstFolder();
	const target = file
		? vscode.Uri.file(file)
		: await vscode.window.showSaveDialog({
				title: 'Gated Memory: export memory',
				saveLabel: 'Export',
				defaultUri: folder ? vscode.Uri.joinPath(folder, 'gated-memory-export.json') : undefined,
				filters: { 'Gated Memory export': ['json'] },
			});
	if (!target) return null;
	const store = await deps.openStore();
	const data = await exportMemory(store.db, deps.workspaceIds(), store.schemaVersion);
	await vscode.workspace.fs.writeFile(target, new TextEncoder().encode(JSON.stringify(data, null, 1) + '\n'));
	const n = (rows: unknown[]) => rows.length;
	return {
		level: 'info',
		message: `Exported ${n(data.documents)} documents, ${n(data.research_memory)} research memories, ${n(data.profile_entries)} profile values and ${n(data.conversation_turns)} turns to ${path.basename(target.fsPath)}.`,
	};
}

function describeImport(c: ImportCounts, name: string): string {
	return `Imported ${name}: ${c.documents} documents (${c.chunks} chunks; ${c.documents_unchanged} unchanged), ${c.research_memory} research memories, ${c.profile_entries} new profile values, ${c.conversation_turns} turns.`;
}

/** Imports `file` (or what the open dialog picks); a bad file is reported and changes nothing. */
export async function importFromFile(deps: MemoryActionDeps, file?: string): Promise<ActionOutcome> {
	if (deps.restricted()) return RESTRICTED;
	const picked = file
		? vscode.Uri.file(file)
		: (
				await vscode.window.showOpenDialog({
					title: 'Gated Memory: import memory',
					openLabel: 'Import',
					canSelectMany: false,
					defaultUri: deps.firstFolder(),
					filters: { 'Gated Memory export': ['json'] },
				})
			)?.[0];
	if (!picked) return null;
	const name = path.basename(picked.fsPath);
	let parsed;
	try {
		parsed = parseMemoryExport(new TextDecoder().decode(await vscode.workspace.fs.readFile(picked)));
	} catch (e) {
		return {
			level: 'error',
			message: `${name} was not imported (nothing changed): ${e instanceof Error ? e.message : String(e)}`,
		};
	}
	const ids = deps.workspaceIds();
	// A one-workspace file from another folder or machine lands in this window's one folder.
	const workspaceId = ids.length === 1 && parsed.workspaces.length === 1 ? ids[0] : undefined;
	const store = await deps.openStore();
	try {
		return { level: 'info', message: describeImport(await importMemory(store.db, parsed, { workspaceId }), name) };
	} catch (e) {
		return {
			level: 'error',
			message: `${name} was not imported (nothing changed): ${e instanceof Error ? e.message : String(e)}`,
		};
	}
}
