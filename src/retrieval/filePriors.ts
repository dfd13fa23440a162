/**
 * Document-type priors (issue 15 item 3): what kind of file a path is, what kind of answer a turn
 * wants, and the multiplier that follows — rules with their weights in retrievalThresholds.ts.
 * A question about how code works or why it fails is answered by the implementation, not by the
 * changelog that names the function ten times; a question about tests by the tests; a how-to,
 * sometimes, by the docs. Pure: paths and text in, numbers and reasons out.
 */
import type { RetrievalTuning } from './retrievalThresholds';

/** What a file is, by its path. */
export type FileKind = 'implementation' | 'test' | 'changelog' | 'generated' | 'docs';

/** What the turn wants. */
export type TurnWant = 'code' | 'tests' | 'howto';

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
const DOCS_PATH =
	/\.(md|markdown|mdx|rst|txt|adoc)$|(^|\/)(docs?|documentation|examples?|_examples)\/|(^|\/)README[^/]*$/i;

/** The kind of a workspace-relative path (first rule that matches: generated, changelog, test, docs). */
export function fileKind(path: string | null): FileKind {
	if (!path) return 'implementation';
	if (GENERATED_PATH.test(path)) return 'generated';
	if (CHANGELOG_PATH.test(path)) return 'changelog';
	if (TEST_PATH.some((r) => r.test(path))) return 'test';
	if (DOCS_PATH.test(path)) return 'docs';
	return 'implementation';
}

const ABOUT_TESTS =
	/\b(tests?|testing|tested|unit[- ]tests?|spec|specs|pytest|jest|vitest|mocha|fixtures?|test suite|test case)\b/i;
const HOWTO =
	/^\s*(how (do|can|should|would) (i|we|you)|how to|what('s| is) the (best |right |recommended )?way to|is (there|it possible)|can (i|we)|what should i)\b/i;

/** What a turn wants: tests when it is about tests, how-to for "how do I …", else code. */
export function turnWant(query: string): TurnWant {
	// Paths and qualified names (tests/test_x.py, /spec/template, a::b) say where, not what is asked.
	const words = query.replace(/\S*(?:[/\\]|::)\S*|\S+\.[A-Za-z]{1,4}\b/g, ' ');
	if (ABOUT_TESTS.test(words)) return 'tests';
	if (HOWTO.test(words)) return 'howto';
	return 'code';
}

/** The multiplier for a file of `kind` when the turn wants `want`, and the rule that gave it. */
export function kindPrior(kind: FileKind, want: TurnWant, t: RetrievalTuning): { weight: number; rule: string | null } {
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
