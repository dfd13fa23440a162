import * as assert from 'node:assert/strict';
import { decideTurn } from '../../../src/core/decide';
import { HookRegistry, type BeforePersistPayload } from '../../../src/core/hooks';
import type { HookStep, TraceStep } from '../../../src/core/trace';
import type { Tier } from '../../../src/core/types';

const hookSteps = (steps: TraceStep[]): HookStep[] => steps.filter((s): s is HookStep => s.kind === 'hook');

describe('hooks', () => {
	describe('HookRegistry', () => {
		it('runs hooks in registration order on a copy and reports what changed', () => {
			const reg = new HookRegistry(() => 0);
			reg.register('before_persist', 'drop-profile', (p) => {
				p.records = p.records.filter((r) => r.tier !== 'profile');
			});
			reg.register('before_persist', 'tag', (p) => {
				for (const r of p.records) r.metadata = { tagged: true };
			});
			const payload: BeforePersistPayload = {
				turn: { history: [], utterance: 'u' },
				records: [
					{ tier: 'research', kind: 'qa', question: 'a', answer: 'A' },
					{ tier: 'profile', kind: 'fact', key: 'editor', value: 'vim', question: 'b' },
				],
			};
			const trace = { steps: [] as TraceStep[] };
			const out = reg.run('before_persist', payload, trace);
			assert.deepEqual(out.records, [
				{ tier: 'research', kind: 'qa', question: 'a', answer: 'A', metadata: { tagged: true } },
			]);
			assert.equal(payload.records.length, 2, 'the input payload is not mutated');
			assert.deepEqual(
				hookSteps(trace.steps).map((s) => [s.name, s.status, s.changed]),
				[
					['drop-profile', 'ok', ['records']],
					['tag', 'ok', ['records']],
				],
			);
		});

		it('a throwing hook is recorded as an error and changes nothing', () => {
			const reg = new HookRegistry(() => 0);
			reg.register('after_generation', 'half-done', (p) => {
				p.response = 'partially edited';
				throw new Error('boom');
			});
			const trace = { steps: [] as TraceStep[] };
			const payload = { turn: { history: [], utterance: 'u' }, route: 'rag', response: 'original' };
			const out = reg.run('after_generation', payload, trace);
			assert.equal(out.response, 'original');
			const [step] = hookSteps(trace.steps);
			assert.equal(step.status, 'error');
			assert.equal(step.error, 'boom');
			assert.deepEqual(step.changed, []);
			assert.equal(step.point, 'after_generation');
		});

		it('register returns a disposer; no hooks means the payload itself comes back', () => {
			const reg = new HookRegistry();
			const dispose = reg.register('before_generation', 'x', (p) => {
				p.system_prompt += '!';
			});
			assert.equal(reg.count('before_generation'), 1);
			dispose();
			dispose();
			assert.equal(reg.count('before_generation'), 0);
			const payload = { turn: { history: [], utterance: 'u' }, route: 'rag', system_prompt: 's', context_blocks: [] };
			assert.equal(reg.run('before_generation', payload, { steps: [] }), payload);
		});
	});

	describe('policy_override in decideTurn', () => {
		it('a hook can change the decision, and the trace says so', () => {
			const hooks = new HookRegistry();
			hooks.register('policy_override', 'no-research', (p) => {
				p.tiers = p.tiers.filter((t) => t !== 'research');
				p.route = 'experiment:no_research';
			});
			// A code-base question about an earlier decision searches workspace and research.
			const r = decideTurn({ history: [], utterance: 'why did we split parseConfig in two?' }, { hooks });
			assert.deepEqual(r.tiers, ['workspace']);
			assert.equal(r.policy.inject_qa_history, false);
			assert.equal(r.route, 'experiment:no_research');
			assert.equal(r.policy.route, 'experiment:no_research');
			const [step] = hookSteps(r.trace.steps);
			assert.equal(step.status, 'ok');
			assert.deepEqual(step.changed, ['tiers', 'route']);
			assert.ok(r.trace.timings.some((t) => t.stage === 'hooks'));
		});

		it('a throwing policy_override hook leaves the turn unchanged', () => {
			const plain = decideTurn({ history: [], utterance: 'where is parseConfig defined?' });
			const hooks = new HookRegistry();
			hooks.register('policy_override', 'broken', (p) => {
				p.tiers = [];
				throw new TypeError('bad experiment');
			});
			const r = decideTurn({ history: [], utterance: 'where is parseConfig defined?' }, { hooks });
			assert.deepEqual(r.tiers, plain.tiers);
			assert.equal(r.route, plain.route);
			assert.equal(r.path, plain.path);
			const [step] = hookSteps(r.trace.steps);
			assert.equal(step.status, 'error');
			assert.equal(step.error, 'bad experiment');
		});

		it('hooks may set inject flags instead of tiers', () => {
			const hooks = new HookRegistry();
			hooks.register('policy_override', 'profile-too', (p) => {
				p.policy.inject_profile = true;
			});
			const r = decideTurn({ history: [], utterance: 'where is parseConfig defined?' }, { hooks });
			assert.deepEqual(r.tiers, ['workspace', 'profile']);
			assert.equal(r.retrieve, true);
		});

		it('unknown tiers are dropped with a note, and order is restored', () => {
			const hooks = new HookRegistry();
			hooks.register('policy_override', 'sloppy', (p) => {
				p.tiers = ['profile', 'conversation' as Tier, 'workspace'];
			});
			const r = decideTurn({ history: [], utterance: 'where is parseConfig defined?' }, { hooks });
			assert.deepEqual(r.tiers, ['workspace', 'profile']);
			assert.ok(r.trace.steps.some((s) => s.kind === 'note' && /unknown tier conversation/.test(s.message)));
		});

		it('a hook cannot open the workspace in Restricted Mode', () => {
			const hooks = new HookRegistry();
			hooks.register('policy_override', 'force-workspace', (p) => {
				p.tiers = ['workspace'];
			});
			const r = decideTurn(
				{ history: [], utterance: 'how does the indexer work?', context: { restricted: true } },
				{ hooks },
			);
			assert.deepEqual(r.tiers, []);
			assert.equal(r.retrieve, false);
		});
	});
});
