/**
 * The memory panel without a workbench: its protocol guards and messenger, the state gatherer
 * (session decisions first, a store that cannot open reported rather than thrown, passwords
 * never shown), and the page's CSP.
 */
import * as assert from 'node:assert/strict';
import {
	formatBytes,
	HOST_TO_MEMORY_PANEL_TYPES,
	isHostToMemoryPanelMessage,
	isMemoryPanelState,
	isMemoryPanelToHostMessage,
	Messenger,
	type HostToMemoryPanel,
	type MemoryPanelState,
	type MemoryPanelToHost,
	type MessageTransport,
} from '../../src/core/memoryPanelProtocol';
import type { RecentDecision } from '../../src/chat/conversationSession';
import { renderMemoryPanelHtml } from '../../src/extension/memoryPanel/memoryPanelHtml';
import {
	displayLocation,
	gatherMemoryPanelState,
	mergeDecisions,
} from '../../src/extension/memoryPanel/memoryPanelState';
import type { DecisionTrace } from '../../src/core/trace';

function state(): MemoryPanelState {
	return {
		generatedAt: 1,
		restricted: false,
		workspaceFolders: 1,
		store: { engine: 'pglite-socket', schemaVersion: 2, where: '/home/u/.gated-memory/db', source: 'default' },
		storeError: null,
		tiers: [{ tier: 'workspace', items: 3, detail: '3 files, 9 chunks', bytes: 2048, lastWrite: 5 }],
		profile: [{ workspaceId: 'w', key: 'editor', value: 'helix', kind: 'fact', since: 2, history: 1 }],
		memories: [
			{ workspaceId: 'w', docId: 'memory:t1', kind: 'qa', content: 'Q: port? A: 8080', at: 3, superseded: true },
		],
		corrections: [
			{
				workspaceId: 'w',
				docId: 'memory:t2',
				content: 'port is 9090',
				at: 4,
				superseded: [{ docId: 'memory:t1', content: 'Q: port?' }],
			},
		],
		decisions: [
			{
				turnId: 't1',
				at: 1,
				utterance: 'hi',
				trigger: 'greeting',
				path: 'direct',
				tiers: [],
				route: 'skip:greeting',
				source: 'stored',
			},
		],
		indexedFiles: 3,
		indexedChunks: 9,
		index: { state: 'idle', percent: null, files: 3, chunks: 9, skipped: { binary: 1 }, lastRun: 7, lastError: null },
		thresholds: [{ name: 'rag_k', value: 6, default: 4, source: 'setting', rationale: 'why' }],
	};
}

function decision(turnId: string, route: string): RecentDecision {
	const trace = {
		decision: { trigger: 'question', path: 'rag', tiers: ['workspace'], route },
	} as unknown as DecisionTrace;
	return { turnId, at: 10, utterance: `u-${turnId}`, trace };
}

describe('memory panel protocol', () => {
	it('accepts a full state and rejects one bad field anywhere', () => {
		assert.ok(isMemoryPanelState(state()));
		assert.ok(isHostToMemoryPanelMessage({ type: 'memory/state', params: state() }));
		const bad = state() as unknown as { tiers: { tier: string }[] };
		bad.tiers[0].tier = 'cache';
		assert.ok(!isHostToMemoryPanelMessage({ type: 'memory/state', params: bad }));
		const nan = state();
		nan.index!.skipped.binary = Number.NaN;
		assert.ok(!isMemoryPanelState(nan));
		assert.ok(
			!isHostToMemoryPanelMessage({ type: 'chat/reply', params: {} }),
			'a chat message is not a memory panel message',
		);
	});

	it('checks every webview → host message, forget targets by kind', () => {
		assert.ok(
			isMemoryPanelToHostMessage({
				type: 'memory/forget',
				params: { kind: 'profile', workspaceId: 'w', key: 'editor' },
			}),
		);
		assert.ok(isMemoryPanelToHostMessage({ type: 'memory/forget', params: { kind: 'file', path: null } }));
		assert.ok(!isMemoryPanelToHostMessage({ type: 'memory/forget', params: { kind: 'profile', workspaceId: 'w' } }));
		assert.ok(!isMemoryPanelToHostMessage({ type: 'memory/forget', params: { kind: 'everything' } }));
		assert.ok(isMemoryPanelToHostMessage({ type: 'memory/clearTier', params: { tier: 'conversation' } }));
		assert.ok(!isMemoryPanelToHostMessage({ type: 'memory/clearTier', params: { tier: 'all' } }));
		assert.deepEqual(HOST_TO_MEMORY_PANEL_TYPES, ['memory/loading', 'memory/state', 'memory/notice']);
	});

	it('delivers valid messages over the shared Messenger and drops malformed ones', () => {
		let listener: (d: unknown) => void = () => undefined;
		const posted: unknown[] = [];
		const transport: MessageTransport = {
			post: (m) => posted.push(m),
			listen: (l) => ((listener = l), () => undefined),
		};
		const invalid: unknown[] = [];
		const m = new Messenger<MemoryPanelToHost, HostToMemoryPanel>(transport, isMemoryPanelToHostMessage, (d) =>
			invalid.push(d),
		);
		const tiers: string[] = [];
		m.on('memory/clearTier', (p) => tiers.push(p.tier));
		listener({ type: 'memory/clearTier', params: { tier: 'profile' } });
		listener({ type: 'memory/clearTier', params: { tier: 'DROP TABLE' } });
		m.send('memory/notice', { level: 'info', message: 'ok' });
		assert.deepEqual(tiers, ['profile']);
		assert.equal(invalid.length, 1);
		assert.deepEqual(posted, [{ type: 'memory/notice', params: { level: 'info', message: 'ok' } }]);
	});

	it('formats sizes', () => {
		assert.equal(formatBytes(512), '512 B');
		assert.equal(formatBytes(2048), '2.0 KB');
		assert.equal(formatBytes(50 * 1024 * 1024), '50 MB');
	});
});

describe('memory panel state', () => {
	it("lists this session's decisions newest first, then stored ones not already shown", () => {
		const stored = [
			{
				turnId: 't2',
				at: 9,
				utterance: 'x',
				trigger: 'question',
				path: 'rag',
				tiers: [],
				route: 'old',
				source: 'stored' as const,
			},
			{
				turnId: 's1',
				at: 8,
				utterance: 'y',
				trigger: 'ack',
				path: 'direct',
				tiers: [],
				route: 'skip:ack',
				source: 'stored' as const,
			},
		];
		const merged = mergeDecisions([decision('t1', 'a'), decision('t2', 'b')], stored);
		assert.deepEqual(
			merged.map((d) => [d.turnId, d.route, d.source]),
			[
				['t2', 'b', 'session'],
				['t1', 'a', 'session'],
				['s1', 'skip:ack', 'stored'],
			],
		);
		assert.equal(mergeDecisions([decision('a', 'r'), decision('b', 'r')], [], 1).length, 1);
	});

	it('never shows a database password', () => {
		assert.equal(displayLocation('postgres://me:s3cret@db.example:5432/gm'), 'postgres://me:***@db.example:5432/gm');
		assert.equal(displayLocation('/home/u/.gated-memory/db'), '/home/u/.gated-memory/db');
		assert.ok(!displayLocation('postgresql://me:p%40ss@host/db').includes('p%40ss'));
	});

	const sources = (restricted: boolean, opened: string[]) => ({
		openStore: () => {
			opened.push('store');
			return Promise.reject(new Error('owner did not answer'));
		},
		workspaceIds: () => ['w'],
		sessionDecisions: () => [decision('t1', 'rag:workspace')],
		thresholds: () => state().thresholds,
		restricted: () => restricted,
		storeSource: () => 'default',
		indexHealth: () => null,
		now: () => 42,
	});

	it('reports a store that cannot open in the state, with the rest still shown', async () => {
		const s = await gatherMemoryPanelState(sources(false, []));
		assert.ok(isMemoryPanelState(s));
		assert.equal(s.store, null);
		assert.match(s.storeError ?? '', /owner did not answer/);
		assert.equal(s.decisions[0].route, 'rag:workspace');
		assert.equal(s.thresholds[0].value, 6);
		assert.equal(s.index, null);
	});

	it('does not open the store in Restricted Mode, and says so', async () => {
		const opened: string[] = [];
		const s = await gatherMemoryPanelState(sources(true, opened));
		assert.deepEqual(opened, []);
		assert.equal(s.restricted, true);
		assert.equal(s.storeError, null);
		assert.equal(s.decisions.length, 1, "this session's decisions still show");
	});
});

describe('memory panel page', () => {
	it("has a strict CSP with one nonce'd script", () => {
		const html = renderMemoryPanelHtml({
			cspSource: 'vscode-resource:',
			nonce: 'abc123',
			scriptUri: 'x/memoryPanel.js',
			styleUri: 'x/memoryPanel.css',
		});
		assert.match(html, /default-src 'none'/);
		assert.match(html, /script-src 'nonce-abc123'/);
		assert.equal(html.match(/<script/g)?.length, 1);
		assert.ok(!/unsafe-inline|unsafe-eval/.test(html));
		assert.match(html, /id="memory-root"/);
	});
});
