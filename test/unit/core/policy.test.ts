// The rule stages alone (RULES_ONLY): they still feed the learned gate as named features (src/core/gate).
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { decideTurn } from '../../../src/core/decide';
import { RULES_ONLY } from '../../../src/core/gate/gateModel';
import { applyOverlays, applyRestricted, basePolicy, tiersOf } from '../../../src/core/policy/policyEngine';
import { ROUTE_LABELS } from '../../../src/core/policy/routeLabel';
import { DEFAULT_THRESHOLDS as T } from '../../../src/core/thresholds';
import type { FollowupResult, TurnInput } from '../../../src/core/types';

const NO_FOLLOWUP: FollowupResult = { score: 0, is_followup: false, signals: [] };
const FOLLOWUP: FollowupResult = { score: 0.9, is_followup: true, signals: [] };
const NO_FEATURES = { about_user: false, personal_reference: false, workspace: null, past_reference: null };

function decide(utterance: string, extra: Partial<TurnInput> = {}) {
	return decideTurn({ history: [], utterance, ...extra }, { gateWeights: RULES_ONLY });
}

describe('policy engine', () => {
	describe('base policy per intent (seed 000)', () => {
		it('uses the per-intent floors of the thresholds table', () => {
			assert.equal(basePolicy('continuation', 'question', T).rag_min_similarity, T.floor_continuation);
			assert.equal(basePolicy('general', 'question', T).rag_min_similarity, T.floor_general);
			assert.equal(basePolicy('workspace_question', 'question', T).rag_min_similarity, T.floor_workspace_question);
			assert.equal(basePolicy('general', 'question', T).qa_min_similarity, T.floor_research);
			assert.equal(T.floor_continuation, 0.35);
			assert.equal(T.floor_general, 0.45);
			assert.equal(T.floor_research, 0.65);
			assert.equal(T.floor_workspace_question, 0);
			assert.equal(basePolicy('general', 'question', T).rag_k, 4);
		});
		it('opens the tiers each intent needs', () => {
			assert.deepEqual(tiersOf(basePolicy('workspace_question', 'question', T)), ['workspace']);
			assert.deepEqual(tiersOf(basePolicy('continuation', 'question', T)), ['workspace', 'research']);
			assert.deepEqual(tiersOf(basePolicy('general', 'question', T)), ['workspace']);
			assert.deepEqual(tiersOf(basePolicy('profile_question', 'question', T)), ['profile']);
			assert.deepEqual(tiersOf(basePolicy('recall', 'recall', T)), ['research']);
			for (const i of ['privacy', 'profile_statement', 'correction', 'instruction'] as const)
				assert.deepEqual(tiersOf(basePolicy(i, 'statement', T)), [], i);
		});
		it('privacy sets privacy mode and drops curated history', () => {
			const d = basePolicy('privacy', 'instruction', T);
			assert.equal(d.privacy_mode, true);
			assert.equal(d.use_curated_history, false);
			assert.equal(d.route, 'privacy');
		});
		it('a general statement is labelled as a write, not as adaptive retrieval', () => {
			const d = basePolicy('general', 'statement', T);
			assert.equal(d.route, 'statement_write');
			assert.deepEqual(tiersOf(d), []);
		});
	});

	describe('cross-intent overlays', () => {
		it('a personal reference opens the profile', () => {
			const d = basePolicy('general', 'question', T);
			const o = applyOverlays(d, 'general', true, { ...NO_FEATURES, personal_reference: true }, NO_FOLLOWUP);
			assert.equal(d.inject_profile, true);
			assert.equal(o.find((x) => x.name === 'personal_reference')?.fired, true);
		});
		it('a follow-up widens a general question with research memory', () => {
			const d = basePolicy('general', 'question', T);
			applyOverlays(d, 'general', true, NO_FEATURES, FOLLOWUP);
			assert.deepEqual(tiersOf(d), ['workspace', 'research']);
		});
		it('overlays do not open tiers for turns that ask nothing', () => {
			const d = basePolicy('general', 'statement', T);
			applyOverlays(d, 'general', false, { ...NO_FEATURES, personal_reference: true }, FOLLOWUP);
			assert.deepEqual(tiersOf(d), []);
		});
		it('privacy closes workspace and research whatever opened them', () => {
			const d = basePolicy('privacy', 'instruction', T);
			d.inject_rag = true;
			d.inject_qa_history = true;
			const o = applyOverlays(d, 'privacy', true, NO_FEATURES, FOLLOWUP);
			assert.deepEqual(tiersOf(d), []);
			assert.equal(o.find((x) => x.name === 'privacy')?.fired, true);
		});
		it('end to end: "my preferred style" adds the profile to a code question', () => {
			const r = decide('format parseConfig in my preferred style');
			assert.ok(r.tiers.includes('profile'), JSON.stringify(r.tiers));
		});
	});

	describe('research memory', () => {
		it('a fresh code-location question searches only the workspace', () => {
			for (const u of [
				'where is the retry budget configured?',
				'which file registers the webhook routes?',
				'what does normalizeEmail return for an empty string?',
			]) {
				assert.deepEqual(decide(u).tiers, ['workspace'], u);
			}
		});
		it('a reference to earlier decisions or discussion adds research memory', () => {
			for (const u of [
				'why did we cap the upload size in uploadHandler?',
				'what was the reason for the custom logger in src/log.ts?',
				'as you suggested, where should the cache invalidation live in our api?',
			]) {
				const r = decide(u);
				assert.deepEqual(r.tiers, ['workspace', 'research'], u);
				const step = r.trace.steps.find((s) => s.kind === 'gate' && s.gate === 'overlay:past_reference');
				assert.ok(step && step.kind === 'gate' && step.fired, u);
			}
		});
		it('a follow-up code question still adds research memory', () => {
			const r = decide('and where is it reset?', {
				history: [{ role: 'user', content: 'where is the retry budget configured?' }],
			});
			assert.deepEqual(r.tiers, ['workspace', 'research']);
		});
	});

	describe('context', () => {
		it('Restricted Mode closes workspace and research, keeps the profile', () => {
			const d = basePolicy('continuation', 'question', T);
			d.inject_profile = true;
			assert.deepEqual(applyRestricted(d, { restricted: true }), ['workspace', 'research']);
			assert.deepEqual(tiersOf(d), ['profile']);
			assert.deepEqual(applyRestricted(d, undefined), []);
		});
		it('end to end: a code question in Restricted Mode retrieves nothing, route "restricted"', () => {
			const r = decide('how does the indexer handle symlinks?', { context: { restricted: true } });
			assert.equal(r.retrieve, false);
			assert.deepEqual(r.tiers, []);
			assert.equal(r.route, 'restricted');
		});
		it('end to end: Restricted Mode keeps research writes closed', () => {
			const r = decide('actually we use pnpm, not npm', { context: { restricted: true } });
			assert.deepEqual(r.write, []);
		});
		it('an empty tier stays in the decision and is noted in the trace', () => {
			const r = decide('where is parseConfig defined?', {
				context: { has_workspace_index: false, has_research_memory: true },
			});
			assert.deepEqual(r.tiers, ['workspace']);
			const notes = r.trace.steps.filter((s) => s.kind === 'note');
			assert.equal(notes.length, 1);
			assert.match(
				notes[0].kind === 'note' ? notes[0].message : '',
				/workspace is searched but the host reports it empty/,
			);
		});
	});

	describe('route labels', () => {
		it('docs/decision-trace.md documents exactly the labels in ROUTE_LABELS', () => {
			const doc = readFileSync(join(__dirname, '../../../docs/decision-trace.md'), 'utf8');
			const table = doc.slice(doc.indexOf('## Route labels'), doc.indexOf('## Performance'));
			const documented = [...table.matchAll(/^\| `([a-z_]+)` \|/gm)].map((m) => m[1]);
			assert.deepEqual([...documented].sort(), [...ROUTE_LABELS].sort());
		});

		it('every label decideTurn produces here is in ROUTE_LABELS', () => {
			const turns = [
				'hi',
				'thanks',
				'test',
				'why did you look that up?',
				'no, I meant the other one',
				'always use tabs',
				'I live in Oslo',
				'The CI takes ten minutes.',
				"don't remember this",
				'print the AWS secret',
				'Can you check it?',
				'what did I change?',
				'fix the failing test',
				'Summarize the ticket notes above',
				'how do I parse JSON in Python?',
				'where is parseConfig defined?',
				'what is the retry policy?',
				"what's my name?",
				'what did we decide about the cache?',
			];
			const seen = new Set(turns.map((u) => decide(u).route));
			seen.add(decide('how does the indexer work?', { context: { restricted: true } }).route);
			seen.add(decide('and the tests?', { history: [{ role: 'user', content: 'how is the cache keyed?' }] }).route);
			for (const label of seen) assert.ok((ROUTE_LABELS as readonly string[]).includes(label), label);
			assert.equal(seen.size, 22 - 1, [...seen].join(', ')); // every label but the 'direct' fallback
		});
	});
});
