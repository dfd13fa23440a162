/** Files a bug report names by module path or printed path, resolved against indexed paths. */
import assert from 'node:assert/strict';
import { matchMentionedFiles, mentionProbeNames, pathMentions } from '../../../src/retrieval/mentionedFiles';

const DJANGO = [
	'db/models/query.py',
	'db/models/__init__.py',
	'db/models/sql/query.py',
	'db/models/sql/compiler.py',
	'contrib/auth/validators.py',
	'contrib/auth/__init__.py',
	'http/__init__.py',
	'http/response.py',
	'forms/models.py',
	'db/models/base.py',
	'shortcuts.py',
];

const resolve = (text: string, paths = DJANGO) => matchMentionedFiles(pathMentions(text, 40), paths).map((f) => f.path);

describe('pathMentions', () => {
	it('reads dotted module names up to the first capitalised segment, and printed paths without their extension', () => {
		const m = pathMentions(
			'from django.db.models.query import QuerySet; see django/db/models/sql/compiler.py line 3',
			10,
		);
		// Both once: the first seen first.
		assert.deepEqual(
			m.map((x) => [x.segments.join('/'), x.file]),
			[
				['django/db/models/query', false],
				['django/db/models/sql/compiler', true],
			],
		);
	});

	it('counts repeats, drops one-segment dotted names and plain sentences, ignores non-code extensions', () => {
		const m = pathMentions('ascii.qdp fails. Then ascii.qdp again. x.Y and notes.txt and end.', 10);
		assert.deepEqual(
			m.map((x) => [x.segments.join('.'), x.count]),
			[['ascii.qdp', 2]],
		);
	});

	it('a Windows path is split on backslashes', () => {
		const m = pathMentions('C:\\proj\\django\\http\\response.py', 5);
		assert.deepEqual(m[0].segments, ['proj', 'django', 'http', 'response']);
	});
});

describe('mentionProbeNames', () => {
	it('probes every module segment after the first with each extension, and __init__ for packages', () => {
		const names = mentionProbeNames(pathMentions('django.contrib.auth', 5), ['py'], 50);
		assert.deepEqual(names.sort(), ['__init__.py', 'auth.py', 'contrib.py']);
	});

	it('a printed path probes only its own file name; the cap holds', () => {
		assert.deepEqual(mentionProbeNames(pathMentions('see http/response.py', 5), ['py', 'ts'], 50), [
			'response.py',
			'response.ts',
		]);
		assert.equal(mentionProbeNames(pathMentions('a.b.c.d.e.f.g', 5), ['py', 'js'], 3).length, 3);
	});
});

describe('matchMentionedFiles', () => {
	it('a dotted path resolves to the deepest module that is a file, not its package', () => {
		assert.deepEqual(resolve('django.db.models.query.QuerySet.bulk_create drops rows'), ['db/models/query.py']);
	});

	it('a package named whole is its __init__; a project-prefixed top-level name matches the whole path', () => {
		assert.deepEqual(resolve('django.contrib.auth is imported'), ['contrib/auth/__init__.py']);
		assert.deepEqual(resolve('django.http is imported'), ['http/__init__.py']);
	});

	it('two segments are enough without the project prefix (sql.compiler, auth.validators)', () => {
		assert.deepEqual(resolve('the sql.compiler module'), ['db/models/sql/compiler.py']);
		assert.deepEqual(resolve('in contrib.auth.validators'), ['contrib/auth/validators.py']);
	});

	it('a printed traceback path maps by its suffix', () => {
		assert.deepEqual(resolve('File "/usr/lib/python3/site-packages/django/db/models/base.py", line 3'), [
			'db/models/base.py',
		]);
	});

	it('a bare file name counts only when one indexed file has it', () => {
		assert.deepEqual(resolve('see response.py'), ['http/response.py']);
		assert.deepEqual(resolve('see query.py'), []);
	});

	it('attribute chains that are not paths match nothing', () => {
		assert.deepEqual(resolve('self.ordering_parts.search(sql) and response.content and np.array'), []);
	});

	it('files named more often rank first', () => {
		const text = 'django.http.response is wrong; django.db.models.base too; base.py in django/db/models/base.py';
		assert.deepEqual(resolve(text), ['db/models/base.py', 'http/response.py']);
	});
});
