/**
 * The memory panel's sections, built from a `MemoryPanelState` with `el` (text only, never
 * markup: memories, profile values and utterances are user data). Buttons carry an `onAction`
 * callback; the caller decides whether actions are enabled (not in Restricted Mode).
 */
import {
	formatBytes,
	type ForgetTarget,
	type MemoryPanelState,
	type MemoryTier,
} from '../../src/core/memoryPanelProtocol';
import { el } from '../dom';

/** What a section's buttons ask for. */
export type PanelAction = { kind: 'forget'; target: ForgetTarget } | { kind: 'clear'; tier: MemoryTier };

type OnAction = (a: PanelAction) => void;

function when(ms: number | null): string {
	if (ms === null) return '—';
	return new Date(ms).toISOString().replace('T', ' ').slice(0, 19);
}

function short(text: string, max = 140): string {
	const t = text.replace(/\s+/g, ' ').trim();
	return t.length > max ? `${t.slice(0, max)}…` : t;
}

function table(className: string, head: string[], rows: (Node | string)[][]): HTMLTableElement {
	return el(
		'table',
		{ className },
		el('thead', {}, el('tr', {}, ...head.map((h) => el('th', { text: h, attrs: { scope: 'col' } })))),
		el('tbody', {}, ...rows.map((cells) => el('tr', {}, ...cells.map((c) => el('td', {}, c))))),
	);
}

function button(label: string, title: string, enabled: boolean, run: () => void): HTMLElement {
	const b = el('vscode-button', { attrs: { secondary: '', title, 'aria-label': title } }, label);
	if (!enabled) b.setAttribute('disabled', '');
	b.addEventListener('click', () => {
		if (!b.hasAttribute('disabled')) run();
	});
	return b;
}

function section(id: string, title: string, ...children: (Node | string | null)[]): HTMLElement {
	return el(
		'section',
		{ className: 'card', attrs: { id, 'aria-labelledby': `${id}-h` } },
		el('h2', { text: title, attrs: { id: `${id}-h` } }),
		...children,
	);
}

function empty(text: string): HTMLElement {
	return el('p', { className: 'empty', text });
}

/** Tiers: counts, size, last write, and a Clear button each. */
export function tiersSection(s: MemoryPanelState, enabled: boolean, act: OnAction): HTMLElement {
	const rows = s.tiers.map((t) => [
		el('span', { className: 'tier-name', text: t.tier }),
		el('span', { className: 'num', text: String(t.items), attrs: { 'data-tier-items': t.tier } }),
		t.detail,
		formatBytes(t.bytes),
		when(t.lastWrite),
		button('Clear…', `Clear the ${t.tier} tier of this workspace`, enabled, () => act({ kind: 'clear', tier: t.tier })),
	]);
	return section(
		'tiers',
		'Tiers',
		rows.length
			? table('tiers-table', ['tier', 'items', 'detail', 'size', 'last write (UTC)', ''], rows)
			: empty(s.restricted ? 'Stored memory is not read in Restricted Mode.' : 'The store could not be read.'),
	);
}

/** The database engine, schema and location (the host never sends a password). */
export function storeSection(s: MemoryPanelState): HTMLElement {
	const body = s.store
		? el(
				'dl',
				{ className: 'facts' },
				el('dt', { text: 'Engine' }),
				el('dd', { text: s.store.engine }),
				el('dt', { text: 'Schema version' }),
				el('dd', { text: String(s.store.schemaVersion) }),
				el('dt', { text: 'Location' }),
				el('dd', {}, el('code', { text: s.store.where })),
				el('dt', { text: 'Chosen by' }),
				el('dd', { text: s.store.source }),
			)
		: empty(
				s.storeError
					? `The store could not be opened: ${s.storeError}`
					: s.restricted
						? 'Not opened in Restricted Mode.'
						: 'The store is not open.',
			);
	return section('store', 'Database', body);
}

/** Index health: the indexer's last report when there is one, the stored counts always. */
export function indexSection(s: MemoryPanelState, enabled: boolean, act: OnAction): HTMLElement {
	const h = s.index;
	const skipped = h
		? Object.entries(h.skipped)
				.map(([reason, n]) => `${reason}: ${n}`)
				.join(', ') || 'none'
		: '—';
	const facts = el(
		'dl',
		{ className: 'facts' },
		el('dt', { text: 'Stored' }),
		el('dd', { text: `${s.indexedFiles} files, ${s.indexedChunks} chunks`, attrs: { id: 'index-stored' } }),
		el('dt', { text: 'This window' }),
		el('dd', {
			text: h
				? `${h.state}${h.percent !== null ? ` (${Math.round(h.percent)}%)` : ''}, ${h.files} files, ${h.chunks} chunks`
				: 'not indexed yet in this window',
		}),
		el('dt', { text: 'Skipped' }),
		el('dd', { text: skipped }),
		el('dt', { text: 'Last run' }),
		el('dd', { text: h ? when(h.lastRun) : '—' }),
		el('dt', { text: 'Last error' }),
		el('dd', { text: h?.lastError ?? 'none' }),
	);
	const forget = button('Forget a file…', 'Remove one indexed file from the workspace tier', enabled, () =>
		act({ kind: 'forget', target: { kind: 'file', path: null } }),
	);
	return section('index', 'Index health', facts, el('div', { className: 'row-actions' }, forget));
}

/** Profile facts, preferences and standing instructions (current value + history size). */
export function profileSection(s: MemoryPanelState, enabled: boolean, act: OnAction): HTMLElement {
	const rows = s.profile.map((p) => [
		el('code', { text: p.key }),
		p.kind,
		short(p.value),
		when(p.since),
		String(p.history),
		button('Forget', `Forget "${p.key}" and its history`, enabled, () =>
			act({ kind: 'forget', target: { kind: 'profile', workspaceId: p.workspaceId, key: p.key } }),
		),
	]);
	return section(
		'profile',
		'Profile and standing instructions',
		rows.length
			? table('profile-table', ['key', 'kind', 'current value', 'since (UTC)', 'earlier values', ''], rows)
			: empty('No profile facts or instructions stored.'),
	);
}

/** Recent research memories, each forgettable. */
export function memoriesSection(
	s: MemoryPanelState,
	enabled: boolean,
	act: OnAction,
	openTurn?: (workspaceId: string, turnId: string) => void,
): HTMLElement {
	const rows = s.memories.map((m) => [
		m.kind + (m.superseded ? ' (superseded)' : ''),
		short(m.content),
		when(m.at),
		el(
			'div',
			{ className: 'row-actions' },
			m.sourceTurn && openTurn
				? button('Open turn', `Open the turn that wrote this memory (${m.sourceTurn})`, enabled, () =>
						openTurn(m.workspaceId, m.sourceTurn!),
					)
				: null,
			button('Forget', 'Forget this memory', enabled, () =>
				act({ kind: 'forget', target: { kind: 'research', workspaceId: m.workspaceId, docId: m.docId } }),
			),
		),
	]);
	return section(
		'memories',
		'Recent research memories',
		rows.length
			? table('memories-table', ['kind', 'content', 'updated (UTC)', ''], rows)
			: empty('No research memories stored.'),
	);
}

/** Recent corrections and what each superseded. */
export function correctionsSection(s: MemoryPanelState): HTMLElement {
	const items = s.corrections.map((c) =>
		el(
			'li',
			{},
			el('div', { text: short(c.content) }),
			el('div', {
				className: 'muted',
				text: `${when(c.at)} — ${c.superseded.length ? 'superseded:' : 'superseded nothing'}`,
			}),
			c.superseded.length
				? el('ul', {}, ...c.superseded.map((x) => el('li', { className: 'superseded', text: short(x.content) })))
				: null,
		),
	);
	return section(
		'corrections',
		'Recent corrections',
		items.length ? el('ul', { className: 'plain' }, ...items) : empty('No corrections stored.'),
	);
}

/** Recent decisions with their routes: this session's first, then stored ones. */
export function decisionsSection(s: MemoryPanelState): HTMLElement {
	const rows = s.decisions.map((d) => [
		when(d.at),
		short(d.utterance, 60),
		d.trigger,
		d.path,
		d.tiers.join(' + ') || '—',
		el('code', { text: d.route }),
		d.source,
	]);
	return section(
		'decisions',
		'Recent decisions',
		rows.length
			? table('decisions-table', ['time (UTC)', 'message', 'trigger', 'path', 'tiers', 'route', 'from'], rows)
			: empty('No decisions yet: send a message in the Gated Memory panel.'),
	);
}

/** Every threshold in force with its source. */
export function thresholdsSection(s: MemoryPanelState): HTMLElement {
	const rows = s.thresholds.map((t) => {
		const name = el('code', { text: t.name, attrs: { title: t.rationale } });
		return [
			name,
			el('span', { className: 'num', text: String(t.value), attrs: { 'data-threshold': t.name } }),
			String(t.default),
			t.source,
		];
	});
	return section(
		'thresholds',
		'Thresholds in force',
		table('thresholds-table', ['name', 'value', 'default', 'source'], rows),
	);
}

/** Memories awaiting approval (confirm mode): approved or discarded from the chip under their reply. */
export function pendingSection(s: MemoryPanelState): HTMLElement {
	const rows = (s.pending ?? []).map((p) => [p.kind, p.tier, short(p.text), when(p.at)]);
	return section(
		'pending',
		'Awaiting approval',
		rows.length
			? table('pending-table', ['kind', 'would go to', 'text', 'proposed (UTC)'], rows)
			: empty('No memories awaiting approval (gatedMemory.memory.writes: confirm puts them here).'),
	);
}

/** Memories whose cited code changed or is gone: keep (re-anchor), update (new text), forget. */
export function staleSection(
	s: MemoryPanelState,
	enabled: boolean,
	review: (m: { workspaceId: string; docId: string }, action: 'keep' | 'update' | 'forget') => void,
): HTMLElement {
	const rows = (s.stale ?? []).map((m) => [
		short(m.content),
		el('code', { text: m.cites }),
		when(m.checkedAt),
		el(
			'div',
			{ className: 'row-actions' },
			button('Keep', 'Still right: follow the code as it is now', enabled, () => review(m, 'keep')),
			button('Update…', 'Write what is true now (supersedes this memory)', enabled, () => review(m, 'update')),
			button('Forget', 'Forget this memory', enabled, () => review(m, 'forget')),
		),
	]);
	return section(
		'stale',
		'Stale memories (the code they cite changed)',
		rows.length
			? table('stale-table', ['memory', 'cites', 'checked (UTC)', 'review'], rows)
			: empty('No stale memories: every memory that cites code still matches it.'),
	);
}

/** Memories demoted from recall by decay: kept, restorable, forgettable. */
export function demotedSection(
	s: MemoryPanelState,
	enabled: boolean,
	review: (m: { workspaceId: string; docId: string }, action: 'restore' | 'forget') => void,
): HTMLElement {
	const rows = (s.demoted ?? []).map((m) => [
		short(m.content),
		`${m.idleDays} days`,
		el(
			'div',
			{ className: 'row-actions' },
			button('Restore', 'Recall this memory again', enabled, () => review(m, 'restore')),
			button('Forget', 'Forget this memory', enabled, () => review(m, 'forget')),
		),
	]);
	return section(
		'demoted',
		'Demoted from recall (not recalled for a long time)',
		rows.length
			? table('demoted-table', ['memory', 'idle', ''], rows)
			: empty('No demoted memories (gatedMemory.memory.decayDays is off, or every memory was recalled recently).'),
	);
}
