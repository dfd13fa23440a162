/**
 * The write gate's pure parts: the mode decides what reaches the host's write path (auto: all,
 * confirm: proposals + the conversation tier, off: the conversation tier + a note), and the
 * settings parsers fall back to defaults while reporting bad entries.
 */
import assert from 'node:assert/strict';
import { gatedPersist, parseReadTiers, parseWriteMode, type WriteMode } from '../../src/chat/memoryWriteGate';
import { proposalKind, proposalText, turnWrite } from '../../src/chat/memoryProposals';
import type { PersistRequest } from '../../src/chat/turnPersistence';
import type { PersistRecord } from '../../src/core/hooks';
import { ok, type Result } from '../../src/core/result';
import type { ProposalRow } from '../../src/store/proposalRepo';

type Tier = PersistRecord['tier'];
// The typed records a turn's write decision makes, one per tier (the gate sees only their tiers).
const recordFor = (tier: Tier): PersistRecord =>
	tier === 'research'
		? { tier, kind: 'correction', question: 'Correction: we deploy with Kustomize, not Helm.', answer: '' }
		: {
				tier,
				kind: 'fact',
				key: 'deploy tool',
				value: 'Kustomize',
				question: 'Correction: we deploy with Kustomize, not Helm.',
			};
const request = (write: Tier[]): PersistRequest => ({
	conversationId: 'c',
	turnId: 't1',
	utterance: 'Correction: we deploy with Kustomize, not Helm.',
	answer: 'ok',
	records: write.map(recordFor),
	trace: { version: 1, turn_id: 't1', steps: [] } as unknown as PersistRequest['trace'],
});
const tiersOf = (r: PersistRequest) => r.records.map((x) => x.tier);

function harness(mode: WriteMode) {
	const written: Tier[][] = [];
	const proposed: Tier[][] = [];
	const persist = gatedPersist(
		async (r) => {
			written.push(tiersOf(r));
			return ok([{ kind: 'note', stage: 'persist', level: 'info', message: 'inner' }]);
		},
		{
			mode: () => mode,
			proposals: {
				propose: async (r) => (
					proposed.push(tiersOf(r)),
					[{ kind: 'note', stage: 'persist', level: 'info', message: 'proposed' }]
				),
			},
		},
	);
	return { persist: async (r: PersistRequest) => unwrap(await persist(r)), written, proposed };
}

function unwrap<T>(r: Result<T>): T {
	if (!r.ok) throw new Error(`err: ${r.error}`);
	return r.value;
}

const messages = (steps: { kind: string; message?: string }[]) => steps.map((s) => s.message);

describe('memory write gate', () => {
	it('auto passes the write tiers through untouched', async () => {
		const h = harness('auto');
		assert.deepEqual(messages(await h.persist(request(['research', 'profile']))), ['inner']);
		assert.deepEqual(h.written, [['research', 'profile']]);
		assert.deepEqual(h.proposed, []);
	});

	it('confirm proposes the tiers and writes only the conversation tier', async () => {
		const h = harness('confirm');
		assert.deepEqual(messages(await h.persist(request(['research']))), ['proposed', 'inner']);
		assert.deepEqual(h.proposed, [['research']]);
		assert.deepEqual(h.written, [[]]);
	});

	it('off writes only the conversation tier and says which tiers were not written', async () => {
		const h = harness('off');
		const steps = await h.persist(request(['research', 'profile']));
		assert.deepEqual(messages(steps), [
			'memory writes are off (gatedMemory.memory.writes): research and profile not written',
			'inner',
		]);
		assert.deepEqual(h.written, [[]]);
		assert.deepEqual(h.proposed, []);
	});

	it('a turn with nothing to write goes straight through in every mode', async () => {
		for (const mode of ['confirm', 'off'] as const) {
			const h = harness(mode);
			assert.deepEqual(messages(await h.persist(request([]))), ['inner'], mode);
			assert.deepEqual(h.proposed, [], mode);
		}
	});

	it('settings parsers: defaults for bad values, unknown read tiers reported', () => {
		assert.equal(parseWriteMode('confirm'), 'confirm');
		assert.equal(parseWriteMode('sometimes'), 'auto');
		assert.equal(parseWriteMode(undefined), 'auto');
		assert.deepEqual(parseReadTiers(undefined), { tiers: ['research', 'profile', 'instructions'], invalid: [] });
		assert.deepEqual(parseReadTiers(['profile', 'workspace', 'profile', 3]), {
			tiers: ['profile'],
			invalid: ['workspace', '3'],
		});
		assert.deepEqual(parseReadTiers('research'), {
			tiers: ['research', 'profile', 'instructions'],
			invalid: ['research'],
		});
		assert.deepEqual(parseReadTiers([]), { tiers: [], invalid: [] });
	});
});

describe('memory proposals: what a proposal stores', () => {
	const row = (over: Partial<ProposalRow>): ProposalRow => ({
		id: '1',
		workspace_id: 'w',
		conversation_id: 'c',
		turn_id: 't1',
		tier: 'research',
		trigger: 'question',
		question: 'Which port?',
		answer: 'Port 8080.',
		text: 'Q: Which port?\nA: Port 8080.',
		status: 'pending',
		stored_text: null,
		outcome: null,
		created_at: '2026-12-01T00:00:00Z',
		...over,
	});

	it('labels and texts by tier and trigger', () => {
		assert.equal(proposalKind('research', 'correction'), 'correction');
		assert.equal(proposalKind('research', 'question'), 'qa');
		assert.equal(proposalKind('profile', 'instruction'), 'instruction');
		assert.equal(proposalKind('profile', 'statement'), 'profile');
		assert.equal(proposalText('research', 'question', 'Which port?', 'Port 8080.'), 'Q: Which port?\nA: Port 8080.');
		assert.equal(proposalText('research', 'correction', 'No: port 9090.', 'noted'), 'No: port 9090.');
		assert.equal(proposalText('profile', 'statement', 'My editor is vim.', 'ok'), 'My editor is vim.');
	});

	it('unedited: the write the turn would have made; edited: the edit as the stored text', () => {
		assert.deepEqual(turnWrite(row({}), null), {
			workspaceId: 'w',
			turnId: 't1',
			trigger: 'question',
			write: ['research'],
			question: 'Which port?',
			answer: 'Port 8080.',
		});
		// An edited Q&A is stored as a note holding exactly the edit.
		assert.deepEqual(turnWrite(row({}), 'The API listens on 8080.'), {
			workspaceId: 'w',
			turnId: 't1',
			trigger: 'question',
			write: ['research'],
			question: 'The API listens on 8080.',
			answer: '',
		});
		const corr = turnWrite(row({ trigger: 'correction', answer: 'noted' }), null);
		assert.equal(corr.answer, '', 'a correction stores its own words, not the reply');
		const prof = turnWrite(row({ tier: 'profile', trigger: 'statement' }), 'My favourite editor is helix');
		assert.deepEqual(prof.profile, [{ key: 'favourite editor', value: 'helix', kind: 'fact' }]);
		const loose = turnWrite(row({ tier: 'profile', trigger: 'statement' }), 'prefers tabs');
		assert.equal(loose.profile?.[0].value, 'prefers tabs');
		assert.match(loose.profile?.[0].key ?? '', /^note:[0-9a-f]{12}$/);
	});
});
