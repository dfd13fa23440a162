/**
 * Document-type priors (issue 15 item 3): what kind of file a path is, what kind of answer a turn
 * wants, and the multiplier that follows — rules with their weights in retrievalThresholds.ts.
 * A question about how code works or why it fails is answered by the implementation, not by the
 * changelog that names the function ten times; a question about tests by the tests; a how-to,
 * sometimes, by the docs. Pure: paths and text in, numbers and reasons out.
 */
import type { RetrievalTuning } from './retrievalThresholds';

/** What a file is, by its path. */
export type FileKind = 'implementation' | 'test' | 'changelog' | 'generated' | 'docs' | 'stub';

/** What the turn wants. */
export type TurnWant = 'code' | 'tests' | 'howto' | 'types';

const TEST_PATH = [
	/(^|\/)(tests?|__tests__|specs?|test_?data|testdata)\//i,
	/(^|\/)(test_[^/]*|[^/]*_tests?|conftest)\.py$/i,
	/_test\.(go|rs|exs?)$/i,
	/\.(test|spec)\.[cm]?[jt]sx?$/i,
	/(^|\/)[^/]*Tests?\.(java|kt|cs|scala)$/,
];
const CHANGELOG_PATH =
	/(^|\/)((CHANGES|CHANGELOG|HISTORY|NEWS|RELEASES?|RELEASE[-_ ]?NOTES|UPGRADING|MIGRATION)(\.[A-Za-z]+)?|(changelog|changes|release[-_]?notes|releases|whatsnew)\/[^/]*)$/i;
const GENERATED_PATH =
	/(\.min\.(js|css)|_pb2(_grpc)?\.py|\.pb\.go|\.generated\.[a-z]+|\.g\.(cs|dart)|-lock\.(json|yaml)|\.lock)$|(^|\/)(dist|build|vendor|node_modules|target|gen)\//i;
// Type stubs: Python's .pyi, TypeScript's declaration files.
const STUB_PATH = /\.pyi$|\.d\.[cm]?ts$/i;
const DOCS_PATH =
	/\.(md|markdown|mdx|rst|txt|adoc)$|(^|\/)(docs?|documentation|examples?|_examples)\/|(^|\/)README[^/]*$/i;

/** The kind of a workspace-relative path (first rule that matches: generated, changelog, test, stub, docs). */
export function fileKind(path: string | null): FileKind {
	if (!path) return 'implementation';
	if (GENERATED_PATH.test(path)) return 'generated';
	if (STUB_PATH.test(path) && !TEST_PATH.some((r) => r.test(path))) return 'stub';
	if (CHANGELOG_PATH.test(path)) return 'changelog';
	if (TEST_PATH.some((r) => r.test(path))) return 'test';
	if (DOCS_PATH.test(path)) return 'docs';
	return 'implementation';
}

const ABOUT_TESTS =
	/\b(tests?|testing|tested|unit[- ]tests?|spec|specs|pytest|jest|vitest|mocha|fixtures?|test suite|test case)\b/i;
const HOWTO =
	/^\s*(how (do|can|should|would) (i|we|you)|how to|what('s| is) the (best |right |recommended )?way to|is (there|it possible)|can (i|we)|what should i)\b/i;

// Turns about type information, where a stub or a declaration file is the answer.
const ABOUT_TYPES =
	/\b(type (hints?|annotations?|stubs?|checkers?|checking|declarations?|definitions?)|stubs?|pyi|d\.ts|mypy|pyright|typeshed|declaration files?)\b/i;

/** What a turn wants: tests when it is about tests, types for type hints and stubs, how-to for "how do I …", else code. */
export function turnWant(query: string): TurnWant {
	// Before the paths are dropped: a turn naming a .pyi or .d.ts file is about its types.
	if (/\S\.(pyi|d\.[cm]?ts)\b/i.test(query) && !ABOUT_TESTS.test(query)) return 'types';
	// Paths and qualified names (tests/test_x.py, /spec/template, a::b) say where, not what is asked.
	const words = query.replace(/\S*(?:[/\\]|::)\S*|\S+\.[A-Za-z]{1,4}\b/g, ' ');
	if (ABOUT_TESTS.test(words)) return 'tests';
	if (ABOUT_TYPES.test(words)) return 'types';
	if (HOWTO.test(words)) return 'howto';
	return 'code';
}

/**
 * What a whole turn wants: turnWant of `text` (the words the user wrote, a pasted trace's frames
 * removed), except that a turn of more than `maxTestWords` words is not about tests — a pasted bug
 * report says "tested with 3.6.2" or quotes a test run, and the fix is in the code.
 */
export function turnWantOfTurn(turn: string, text: string, maxTestWords: number): TurnWant {
	const want = turnWant(text);
	return want === 'tests' && turn.split(/\s+/).filter(Boolean).length > maxTestWords ? 'code' : want;
}

/**
 * The multiplier for a file of `kind` when the turn wants `want`, and the rule that gave it.
 * `implementationNearby`: an implementation file of the stub's own directory is among the
 * candidates — a stub goes below the implementation only when there is one to go below.
 */
export function kindPrior(
	kind: FileKind,
	want: TurnWant,
	t: RetrievalTuning,
	implementationNearby = true,
): { weight: number; rule: string | null } {
	if (kind === 'stub')
		return want === 'types' || !implementationNearby
			? { weight: 1, rule: null }
			: { weight: t.prior_stub_below_impl, rule: `${want}: stub below implementation` };
	if (want === 'tests')
		return kind === 'test'
			? { weight: t.prior_tests_when_asked, rule: 'tests asked: tests up' }
			: { weight: 1, rule: null };
	if (want === 'howto' && kind === 'docs') return { weight: t.prior_docs_howto, rule: 'how-to: docs' };
	if (want === 'code' && kind === 'docs') return { weight: t.prior_docs_code, rule: 'code: docs' };
	if (kind === 'test' || kind === 'changelog' || kind === 'generated')
		return { weight: t.prior_impl_over_other, rule: `${want}: ${kind} down` };
	return { weight: 1, rule: null };
}

/** The directory of a path ('' at the root). */
const dirOf = (path: string) => (path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : '');

/** Directories holding an implementation file among `paths` (for kindPrior's implementationNearby). */
export function implementationDirs(paths: Iterable<string | null>): Set<string> {
	const out = new Set<string>();
	for (const p of paths) if (p && fileKind(p) === 'implementation') out.add(dirOf(p));
	return out;
}

/** Whether `path` is a stub with an implementation file of its directory in `dirs`. */
export function implementationNearby(path: string | null, dirs: ReadonlySet<string>): boolean {
	return !!path && dirs.has(dirOf(path));
}
