/**
 * "Gated Memory: Inspect Memory State": a read-only Markdown document (virtual, scheme
 * `gated-memory`) with the conversation state, every threshold in force (value, default, source,
 * rationale) and the recent decisions, plus the last trace as JSON.
 */
import * as vscode from 'vscode';
import type { ConversationSession, RecentDecision } from './conversationSession';
import type { Logger } from './logger';
import { databaseUrlForDisplay, storageFolder, type ThresholdRow } from './settings';

/** The virtual document's scheme; documents of a content provider are read-only. */
export const MEMORY_STATE_SCHEME = 'gated-memory';
/** The one virtual document this command opens. */
export const MEMORY_STATE_URI = vscode.Uri.from({ scheme: MEMORY_STATE_SCHEME, path: '/Memory State.md' });

/** What the document shows; gathered by the caller so this module stays a formatter. */
export interface MemoryStateInput {
	session: ConversationSession;
	thresholds: ThresholdRow[];
	restricted: boolean;
	storage: { path: string; source: string };
	databaseUrl: string | null;
	now: Date;
}

/** Markdown table cells cannot hold a bare `|` or a newline. */
function cell(text: string): string {
	return text.replace(/\|/g, '\\|').replace(/\s+/g, ' ').trim();
}

function decisionRow(d: RecentDecision): string {
	const s = d.trace.decision;
	const tiers = s.tiers.length ? s.tiers.join(' + ') : '—';
	const utterance = d.utterance.length > 60 ? `${d.utterance.slice(0, 60)}…` : d.utterance;
	return `| ${new Date(d.at).toISOString().slice(11, 19)} | ${cell(utterance)} | ${s.trigger} | ${s.path} | ${tiers} | \`${cell(s.route)}\` | ${Math.round(d.trace.total_us)} |`;
}

/** Renders the whole document. */
export function renderMemoryState(input: MemoryStateInput): string {
	const { session } = input;
	const decisions = session.recentDecisions;
	const lines = [
		'# Gated Memory — memory state',
		'',
		`Generated ${input.now.toISOString()}. Read-only; run the command again to refresh.`,
		'',
		'## Conversation',
		'',
		`- Id: \`${session.id}\`, started ${new Date(session.startedAt).toISOString()}`,
		`- Transcript entries: ${session.entries.length}; history window sent to the core: ${session.history().length} turns`,
		`- User turn times recorded: ${session.userTurnTimes.length}`,
		`- Restricted Mode: ${input.restricted ? 'yes — chat over the conversation only' : 'no'}`,
		'',
		'## Store',
		'',
		`- Store folder: \`${input.storage.path}\` (from ${input.storage.source})`,
		`- Server database: ${input.databaseUrl ? `\`${input.databaseUrl}\`` : 'not set (embedded store)'}`,
		'- Tiers: workspace is searched on turns that retrieve it (lexical-only, after Gated Memory: Index Workspace); research / profile not connected yet.',
		'',
		'## Thresholds in force',
		'',
		'| name | value | default | source | rationale |',
		'|---|---:|---:|---|---|',
		...input.thresholds.map((t) => `| \`${t.name}\` | ${t.value} | ${t.default} | ${t.source} | ${cell(t.rationale)} |`),
		'',
		`## Recent decisions (${decisions.length})`,
		'',
	];
	if (decisions.length === 0) {
		lines.push('No decisions yet: send a message in the Gated Memory panel.');
	} else {
		lines.push('| time (UTC) | message | trigger | path | tiers | route | µs |', '|---|---|---|---|---|---|---:|');
		lines.push(...decisions.map(decisionRow));
		const last = decisions[decisions.length - 1];
		lines.push('', '## Last decision trace', '', '```json', JSON.stringify(last.trace, null, 2), '```');
	}
	return lines.join('\n') + '\n';
}

/** Serves the virtual document and refreshes it on demand. */
export class MemoryStateDocuments implements vscode.TextDocumentContentProvider {
	private readonly changed = new vscode.EventEmitter<vscode.Uri>();
	readonly onDidChange = this.changed.event;

	constructor(private readonly gather: () => MemoryStateInput) {}

	provideTextDocumentContent(): string {
		return renderMemoryState(this.gather());
	}

	/** Opens (or refreshes and reveals) the document beside the current editor. */
	async show(log: Logger): Promise<void> {
		this.changed.fire(MEMORY_STATE_URI);
		const doc = await vscode.workspace.openTextDocument(MEMORY_STATE_URI);
		await vscode.window.showTextDocument(doc, { preview: false, viewColumn: vscode.ViewColumn.Active });
		log.info('memory state opened');
	}

	dispose(): void {
		this.changed.dispose();
	}
}

/** Registers the provider; returns it for the command to call. */
export function registerMemoryStateDocuments(
	context: vscode.ExtensionContext,
	gather: () => Omit<MemoryStateInput, 'storage' | 'databaseUrl' | 'now'>,
): MemoryStateDocuments {
	const docs = new MemoryStateDocuments(() => ({
		...gather(),
		storage: storageFolder(),
		databaseUrl: databaseUrlForDisplay(),
		now: new Date(),
	}));
	context.subscriptions.push(vscode.workspace.registerTextDocumentContentProvider(MEMORY_STATE_SCHEME, docs), docs);
	return docs;
}
