import * as assert from 'node:assert/strict';
import {
	decideBehavior,
	maxRepetition,
	modulateVolume,
	turnsInWindow,
	type Volume,
} from '../../../src/core/behavior/behaviorEngine';
import { decideTurn } from '../../../src/core/decide';
import { analyzeText } from '../../../src/core/text/turnText';
import { DEFAULT_THRESHOLDS as T, resolveThresholds } from '../../../src/core/thresholds';
import type { BehaviorMode, HistoryTurn, Intent, TurnContext } from '../../../src/core/types';

function mode(
	utterance: string,
	intent: Intent = 'general',
	history: HistoryTurn[] = [],
	context?: TurnContext,
): BehaviorMode {
	return decideBehavior(analyzeText(utterance), intent, history, context, T).mode;
}
const user = (content: string): HistoryTurn => ({ role: 'user', content });
const BASE: Volume = {
	rag_k: T.rag_k,
	qa_k: T.qa_k,
	rag_min_similarity: T.floor_general,
	qa_min_similarity: T.floor_research,
};

describe('behaviour engine', () => {
	describe('modes', () => {
		it('greeting, testing and meta intents skip retrieval', () => {
			for (const [intent, expected] of [
				['greeting', 'greeting'],
				['testing', 'testing_aware'],
				['meta', 'meta_aware'],
			] as const) {
				const b = decideBehavior(analyzeText('x y z'), intent, [], undefined, T);
				assert.equal(b.mode, expected);
				assert.equal(b.skip_retrieval, true);
				assert.equal(b.reduce_retrieval || b.boost_retrieval, false);
			}
		});
		it('frustration: cues, shouting, repeated bangs', () => {
			assert.equal(mode("that's wrong again"), 'frustration_recovery');
			assert.equal(mode('still not working'), 'frustration_recovery');
			assert.equal(mode('you keep breaking the import order'), 'frustration_recovery');
			assert.equal(mode('WHY DOES THE BUILD FAIL'), 'frustration_recovery');
			assert.equal(mode('it fails!!!'), 'frustration_recovery');
		});
		it('no frustration from a short acronym or from "you keep" as in "keep answers short"', () => {
			assert.equal(mode('is CI green?'), 'standard');
			assert.equal(mode('Can you keep answers shorter from now on?'), 'standard');
		});
		it('repetition: the user repeats an earlier turn (near-)identically', () => {
			const history = [
				user('how do we invalidate the embedding cache?'),
				{ role: 'assistant', content: 'by content hash' } as HistoryTurn,
			];
			assert.equal(mode('How do we invalidate the embedding cache', 'general', history), 'repetition_aware');
			assert.equal(mode('how do we warm the embedding cache?', 'general', history), 'standard');
		});
		it('repetition ignores assistant turns and very short turns', () => {
			assert.equal(
				mode('how do we invalidate the cache?', 'general', [
					{ role: 'assistant', content: 'how do we invalidate the cache?' },
				]),
				'standard',
			);
			assert.equal(mode('ok thanks', 'general', [user('ok thanks')]), 'standard');
		});
		it('rapid fire: enough user turns inside the window', () => {
			const now = 1_000_000;
			const quick: TurnContext = { now, user_turn_times: [now - 10_000, now - 5_000] };
			const slow: TurnContext = { now, user_turn_times: [now - 600_000, now - 300_000] };
			assert.equal(mode('and the tests for it', 'general', [], quick), 'rapid_fire');
			assert.equal(mode('and the tests for it', 'general', [], slow), 'standard');
			assert.equal(mode('and the tests for it', 'general', [], { user_turn_times: [now] }), 'standard');
		});
		it('exploratory: options, brainstorming, comparing approaches', () => {
			assert.equal(mode('what are the options for caching?'), 'exploratory');
			assert.equal(mode('brainstorm names for the CLI'), 'exploratory');
			assert.equal(mode('compare approaches to chunking'), 'exploratory');
			assert.equal(mode('pros and cons of PGlite'), 'exploratory');
			assert.equal(mode('compare Redis and Memcached for sessions'), 'exploratory');
			assert.equal(mode('HNSW vs IVFFlat for 10k rows'), 'exploratory');
		});
		it('otherwise standard', () => {
			assert.equal(mode('where is the logger created?'), 'standard');
		});
		it('frustration outranks repetition', () => {
			assert.equal(mode('still not working', 'general', [user('still not working')]), 'frustration_recovery');
		});
	});

	describe('helpers', () => {
		it('maxRepetition is a word-set Jaccard similarity', () => {
			assert.equal(maxRepetition(['a', 'b', 'c', 'd'], [user('a b c d')], 10), 1);
			assert.equal(maxRepetition(['a', 'b', 'c', 'd'], [user('a b c e')], 10), 3 / 5);
			assert.equal(maxRepetition(['a', 'b'], [user('a b')], 0), 0);
		});
		it('turnsInWindow counts this turn plus earlier ones inside the window', () => {
			assert.equal(turnsInWindow({ now: 100, user_turn_times: [10, 50, 90] }, 60), 3);
			assert.equal(turnsInWindow(undefined, 60), 0);
		});
	});

	describe('volume: reduce and boost really change k and floors', () => {
		it('reduce lowers k and raises the floors by the table values', () => {
			const v = modulateVolume(
				BASE,
				{ mode: 'rapid_fire', skip_retrieval: false, reduce_retrieval: true, boost_retrieval: false, reason: '' },
				T,
			);
			assert.ok(v.rag_k < T.rag_k);
			assert.equal(v.rag_k, Math.max(1, Math.round(T.rag_k * T.reduce_k_factor)));
			assert.equal(v.qa_k, Math.max(1, Math.round(T.qa_k * T.reduce_k_factor)));
			assert.equal(v.rag_min_similarity, Math.round((T.floor_general + T.reduce_floor_delta) * 1e4) / 1e4);
			assert.equal(v.qa_min_similarity, Math.round((T.floor_research + T.reduce_floor_delta) * 1e4) / 1e4);
		});
		it('boost raises k and lowers the floors by the table values', () => {
			const v = modulateVolume(
				BASE,
				{ mode: 'exploratory', skip_retrieval: false, reduce_retrieval: false, boost_retrieval: true, reason: '' },
				T,
			);
			assert.ok(v.rag_k > T.rag_k);
			assert.equal(v.rag_k, Math.round(T.rag_k * T.boost_k_factor));
			assert.equal(v.rag_min_similarity, Math.round((T.floor_general - T.boost_floor_delta) * 1e4) / 1e4);
		});
		it('floors stay within 0..1 and k never drops to 0 unless configured 0', () => {
			const low: Volume = { rag_k: 1, qa_k: 0, rag_min_similarity: 0, qa_min_similarity: 0.95 };
			const reduced = modulateVolume(
				low,
				{ mode: 'rapid_fire', skip_retrieval: false, reduce_retrieval: true, boost_retrieval: false, reason: '' },
				T,
			);
			assert.equal(reduced.rag_k, 1);
			assert.equal(reduced.qa_k, 0);
			assert.equal(reduced.qa_min_similarity, 1);
			const boosted = modulateVolume(
				low,
				{ mode: 'exploratory', skip_retrieval: false, reduce_retrieval: false, boost_retrieval: true, reason: '' },
				T,
			);
			assert.equal(boosted.rag_min_similarity, 0);
		});
		it('end to end: a rapid-fire turn searches fewer, stronger chunks', () => {
			const now = 1_000_000;
			const r = decideTurn({
				history: [],
				utterance: 'how are embeddings batched in the indexer?',
				context: { now, user_turn_times: [now - 4000, now - 2000] },
			});
			assert.equal(r.mode, 'rapid_fire');
			assert.ok(r.retrieve);
			assert.ok(r.policy.rag_k < T.rag_k);
			assert.equal(r.policy.rag_k, 2);
			assert.ok(r.policy.rag_min_similarity > T.floor_general);
		});
		it('end to end: an exploratory turn searches more, weaker chunks', () => {
			const r = decideTurn({ history: [], utterance: 'what are the options for caching the embeddings?' });
			assert.equal(r.mode, 'exploratory');
			assert.equal(r.policy.rag_k, T.rag_k * T.boost_k_factor);
			assert.ok(r.policy.rag_min_similarity < T.floor_general);
		});
		it('the factors come from the thresholds table (a config changes them)', () => {
			const custom = resolveThresholds({ reduce_k_factor: 0.25, rag_k: 8 });
			assert.ok(custom.ok);
			const now = 1_000_000;
			const r = decideTurn(
				{
					history: [],
					utterance: 'how are embeddings batched in the indexer?',
					context: { now, user_turn_times: [now - 1, now - 2] },
				},
				{ thresholds: custom.value },
			);
			assert.equal(r.policy.rag_k, 2);
		});
	});
});
