/**
 * A pasted trace's frames mapped to workspace files and their chunks in one statement
 * (frameCandidates + matchFramePath in failureLookups), on both engines: the candidate with the
 * most trailing segments wins, ties go to the shorter path, a one-segment match counts only for a
 * whole workspace path, a line past the file's end fetches nothing (and does not fall back to
 * another candidate), and the raising-site phrase query is not sent when the innermost frame raises.
 */
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { failureLookups, planFailure } from '../../src/retrieval/failureEvidence';
import { DEFAULT_RETRIEVAL_TUNING } from '../../src/retrieval/retrievalThresholds';
import type { Queryable } from '../../src/store/queryable';
import { indexedRepoSuite } from '../fixtures/indexed_repo';
import { testEngines } from '../fixtures/store_engines';

const util = (who: string) => `def helper_${who}(value):
    """Return the value of ${who}."""
    checked = check_${who}(value)
    return checked


def check_${who}(value):
    if value is None:
        raise ValueError("the ${who} value is missing")
    return value
`;

const FILES: Record<string, string> = {
	'app/util.py': util('app'),
	'lib/app/util.py': util('lib'),
	'util.py': util('root'),
	'tools/util.py': util('tools'),
	'pkg/__init__.py': util('pkg'),
};

/** A Python traceback of these (path, line, function) frames, outermost first as Python prints it. */
const trace = (frames: [string, number, string][], error = 'ValueError: bad input') =>
	[
		'Traceback (most recent call last):',
		...frames.map(([p, l, f]) => `  File "${p}", line ${l}, in ${f}\n    x = 1`),
		error,
	].join('\n');

function recording(db: Queryable): { db: Queryable; sent: string[] } {
	const sent: string[] = [];
	return {
		sent,
		db: {
			engine: db.engine,
			scope: db.scope,
			query: (sql, params) => {
				sent.push(sql);
				return db.query(sql, params);
			},
			transaction: (fn) => db.transaction(fn),
			close: () => db.close(),
		},
	};
}

for (const engine of testEngines()) {
	describe(`pasted-trace frames in one lookup (${engine.name})`, function () {
		this.timeout(120_000);
		const repo = indexedRepoSuite(engine, {
			prefix: 'gmem-frames-',
			write: (root) => {
				for (const [p, text] of Object.entries(FILES)) {
					mkdirSync(dirname(join(root, p)), { recursive: true });
					writeFileSync(join(root, p), text);
				}
			},
		});
		const lookup = async (text: string, folderNames: string[] = []) => {
			const { db, sent } = recording(repo.store().db);
			const e = await failureLookups(
				db,
				repo.scope(),
				planFailure(text, 6, DEFAULT_RETRIEVAL_TUNING),
				DEFAULT_RETRIEVAL_TUNING,
				folderNames,
			);
			return { e, sent };
		};

		it('maps each frame to the best-matching file and the chunk at its line, in one statement', async () => {
			const { e, sent } = await lookup(
				trace([
					['/srv/tools/util.py', 3, 'helper_tools'],
					['util.py', 3, 'helper_root'],
					['/x/y/lib/app/util.py', 3, 'helper_lib'],
					['/home/u/.venv/lib/python3.11/site-packages/app/util.py', 3, 'helper_app'],
				]),
			);
			// Innermost first: site-packages/app/util.py ties app/util.py and lib/app/util.py on two segments; the shorter wins.
			assert.deepEqual(
				e.frames.map((f) => [f.frame.path.split('/').slice(-3).join('/'), f.path]),
				[
					['site-packages/app/util.py', 'app/util.py'],
					['lib/app/util.py', 'lib/app/util.py'],
					['util.py', 'util.py'],
					['srv/tools/util.py', 'tools/util.py'],
				],
			);
			for (const f of e.frames) {
				assert.equal(f.row.path, f.path);
				assert.ok(f.row.start_line! <= 3 && f.row.end_line! >= 3, `${f.path}:${f.row.start_line}-${f.row.end_line}`);
				assert.match(f.row.content, /def helper_/);
			}
			// One statement for the frames (the phrase query of "bad input" aside): before, a path probe and a chunk fetch.
			assert.equal(sent.filter((s) => !s.includes('phraseto_tsquery')).length, 1, sent.join('\n---\n'));
		});

		it('a one-segment match of a longer printed path needs the function in the chunk; a line past the end fetches nothing', async () => {
			const { e } = await lookup(
				trace([
					// Only util.py (the whole workspace path) matches "/opt/other/util.py" on one segment.
					['/opt/other/util.py', 3, 'helper_root'],
					['/opt/other2/util.py', 3, 'not_there'],
					// pkg/__init__.py is the best candidate; line 400 is past its end, and no other candidate is tried.
					['/venv/site-packages/pkg/__init__.py', 400, 'helper_pkg'],
				]),
			);
			assert.deepEqual(
				e.frames.map((f) => [f.frame.path, f.path]),
				[['/opt/other/util.py', 'util.py']],
			);
		});

		it("the open folder's own name counts as a segment: its package's frames map without naming the function", async () => {
			// The workspace is the package folder itself ("mylib"): site-packages/mylib/util.py is its util.py.
			const text = trace([['/venv/site-packages/mylib/util.py', 3, 'not_named_in_the_chunk']]);
			assert.deepEqual((await lookup(text)).e.frames, []);
			assert.deepEqual(
				(await lookup(text, ['mylib'])).e.frames.map((f) => f.path),
				['util.py'],
			);
			// Another folder's name does not.
			assert.deepEqual((await lookup(text, ['otherlib'])).e.frames, []);
		});

		it('the innermost frame raises: the raising-site phrase query is not sent, and the trace says so', async () => {
			const text = trace(
				[
					['/srv/app/main.py', 1, '<module>'],
					['/venv/site-packages/app/util.py', 9, 'check_app'],
				],
				'ValueError: the app value is missing',
			);
			const { e, sent } = await lookup(text);
			assert.equal(e.frames[0]?.path, 'app/util.py');
			assert.equal(e.framesReachRaise, true);
			assert.equal(e.raiseSitesLookedUp, false);
			assert.ok(!sent.some((s) => s.includes('phraseto_tsquery')), 'no phrase query');
			// Cut at the caller (line 3 calls check_app): the phrases are looked up and find the raise.
			const cut = await lookup(
				trace([['/venv/site-packages/app/util.py', 3, 'helper_app']], 'ValueError: the app value is missing'),
			);
			assert.equal(cut.e.framesReachRaise, false);
			assert.ok(
				cut.sent.some((s) => s.includes('phraseto_tsquery')),
				'the phrase query ran',
			);
			assert.equal(cut.e.raiseSites[0]?.chunk.path, 'app/util.py');
		});
	});
}
