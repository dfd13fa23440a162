/**
 * Probe (not a test): which instruction-file sections a message applies, on a small hand-written
 * set — 6 sections (the integration test's and the e2e's AGENTS.md plus two more) × 12 messages
 * (8 that should apply one section, 4 that should apply none) — with the built-in embedder and the
 * default recall floor. Prints each message's cosine per section, what was applied and why, and
 * the counts (applied when expected, applied when not). Reproduces the figures in
 * docs/architecture.md, "Instruction files".
 *   npx tsx bench/instructionRecallProbe.ts
 */
import { DEFAULT_THRESHOLDS } from '../src/core/thresholds';
import { loadBuiltinEmbedder } from '../src/models/builtinEmbedder';
import { selectFileInstructions } from '../src/retrieval/instructionRecall';
import type { Queryable } from '../src/store/queryable';

const SECTIONS: Record<string, string> = {
	Testing: 'Run `npm test` before committing. Unit tests live in test/unit and use mocha.',
	'Commit messages': 'Write commit messages in the imperative mood and reference the issue number.',
	'Code style': 'Use tabs for indentation, single quotes, and no default exports. Keep files small.',
	Database:
		'All SQL must be parameterised. Migrations are numbered files in src/store; never edit an applied migration.',
	'Backoff policy': 'When explaining retry code, say that the delay doubles after each attempt.',
	Releases: 'Tag releases as vX.Y.Z and update CHANGELOG.md under Unreleased.',
};

// message → the section it should apply (null: none)
const MESSAGES: [string, string | null][] = [
	['how do I run the tests?', 'Testing'],
	['write a unit test for parseConfig', 'Testing'],
	['write a commit message for this change', 'Commit messages'],
	['how should I indent this code?', 'Code style'],
	['add a migration for a new column', 'Database'],
	['How does retryWithBackoff in src/retry.ts work?', 'Backoff policy'],
	['how do I tag a new release?', 'Releases'],
	['is this SQL query parameterised correctly?', 'Database'],
	['hello there', null],
	['thanks!', null],
	['what is the capital of France?', null],
	['explain the generator streaming in src/generation/lmGenerator.ts', null],
];

const rows = Object.entries(SECTIONS).map(([title, value]) => ({
	key: `file:AGENTS.md § ${title}`,
	value,
	source_turn: `instruction-file:${JSON.stringify({ source: 'AGENTS.md', title, globs: [], alwaysApply: false, description: '' })}`,
}));
// The selection's one query, answered from memory: the probe measures the matching, not the store.
const db = { engine: 'pglite', query: async () => rows } as unknown as Queryable;

void (async () => {
	const embedder = await loadBuiltinEmbedder();
	const titles = Object.keys(SECTIONS);
	const vecs = await embedder.embed(titles.map((t) => `${t}\n\n${SECTIONS[t]}`));
	let hit = 0;
	let missed = 0;
	let wrong = 0;
	for (const [message, want] of MESSAGES) {
		const [q] = await embedder.embed([message]);
		const cos = titles.map((t, i) => `${t}:${vecs[i]!.reduce((s, x, j) => s + x * q![j]!, 0).toFixed(2)}`);
		const r = await selectFileInstructions(db, ['probe'], {
			query: message,
			paths: [],
			embedder,
			floor: DEFAULT_THRESHOLDS.floor_research,
			max: DEFAULT_THRESHOLDS.instruction_sections_per_turn,
		});
		const applied = r.applied.map((a) => a.title);
		if (want && applied.includes(want)) hit++;
		else if (want) missed++;
		wrong += applied.filter((a) => a !== want).length;
		console.log(
			`${message}\n  cosines ${cos.join(' ')}\n  applied ${r.applied.map((a) => `${a.title} (${a.why})`).join('; ') || 'none'}${want ? `; expected ${want}` : '; expected none'}`,
		);
	}
	const expected = MESSAGES.filter(([, w]) => w).length;
	console.log(
		`\nexpected section applied: ${hit} of ${expected} (missed ${missed}); sections applied that were not expected: ${wrong} (over ${MESSAGES.length} messages × ${titles.length} sections)`,
	);
})();
