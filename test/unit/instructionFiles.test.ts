import assert from 'node:assert/strict';
import {
	frontMatter,
	globList,
	globRegExp,
	isInstructionFile,
	markdownSections,
	matchingGlobs,
	parseInstructionFile,
} from '../../src/indexing/instructionFiles';
import { REDACTED } from '../../src/indexing/secretScan';
import { pathsInMessage } from '../../src/retrieval/instructionRecall';

const LIMITS = { maxBytes: 32768, maxSectionChars: 2000 };
const parse = (rel: string, text: string, limits = LIMITS) =>
	parseInstructionFile(rel, Buffer.from(text, 'utf8'), limits);

describe('instruction files: which files', () => {
	it('knows the five formats by path', () => {
		for (const p of [
			'AGENTS.md',
			'CLAUDE.md',
			'.github/copilot-instructions.md',
			'.cursor/rules/style.mdc',
			'.continue/rules/testing.md',
			'.continue/rules/db.mdc',
		])
			assert.equal(isInstructionFile(p), true, p);
	});
	it('leaves other files alone (nested folders, other extensions, other places)', () => {
		for (const p of [
			'README.md',
			'docs/AGENTS.md',
			'agents.md',
			'.cursor/rules/style.md',
			'.cursor/rules/sub/x.mdc',
			'.continue/config.yaml',
			'.github/workflows/ci.yml',
			'src/CLAUDE.md.ts',
		])
			assert.equal(isInstructionFile(p), false, p);
	});
});

describe('instruction files: markdown (AGENTS.md, CLAUDE.md, copilot-instructions.md)', () => {
	it('splits at headings, keeps the preamble under the file name, drops empty sections', () => {
		const s = markdownSections(
			'AGENTS.md',
			'Be terse.\n\n# Project\n\n## Testing\nRun `npm test`.\n\n## Style\nUse tabs.\n',
		);
		assert.deepEqual(
			s.map((x) => [x.title, x.text]),
			[
				['AGENTS.md', 'Be terse.'],
				['Testing', 'Run `npm test`.'],
				['Style', 'Use tabs.'],
			],
		);
		assert.ok(s.every((x) => x.source === 'AGENTS.md' && !x.alwaysApply && x.globs.length === 0));
	});
	it('does not split at a # line inside a code fence', () => {
		const s = markdownSections('CLAUDE.md', '## Build\n```bash\n# install first\nnpm ci\n```\nthen npm run build\n');
		assert.equal(s.length, 1);
		assert.equal(s[0]!.title, 'Build');
		assert.match(s[0]!.text, /# install first[\s\S]*then npm run build/);
	});
	it('reads CRLF files and a byte-order mark', () => {
		const p = parse('.github/copilot-instructions.md', '\uFEFF## Naming\r\nUse camelCase.\r\n');
		assert.deepEqual(
			p.sections.map((x) => [x.title, x.text]),
			[['Naming', 'Use camelCase.']],
		);
	});
});

describe('instruction files: rule files (.cursor/rules/*.mdc, .continue/rules/*)', () => {
	it('reads Cursor front matter: description, comma-separated globs, alwaysApply', () => {
		const p = parse(
			'.cursor/rules/react.mdc',
			'---\ndescription: React components\nglobs: src/**/*.tsx, *.jsx\nalwaysApply: false\n---\nUse function components.\n',
		);
		assert.equal(p.sections.length, 1);
		const r = p.sections[0]!;
		assert.deepEqual(
			[r.title, r.description, r.globs, r.alwaysApply, r.text],
			['react', 'React components', ['src/**/*.tsx', '*.jsx'], false, 'Use function components.'],
		);
	});
	it('reads alwaysApply: true and a YAML list of quoted globs', () => {
		const { meta } = frontMatter('---\nalwaysApply: true\nglobs:\n  - "**/*.sql"\n  - \'migrations/*\'\n---\nbody');
		assert.equal(meta.alwaysApply, true);
		assert.deepEqual(globList(meta.globs), ['**/*.sql', 'migrations/*']);
		assert.deepEqual(globList(frontMatter('---\nglobs: ["a/*.ts", "b.ts"]\n---\n').meta.globs), ['a/*.ts', 'b.ts']);
	});
	it('takes a Continue rule name from its front matter, else the file name', () => {
		assert.equal(
			parse('.continue/rules/01-sql.md', '---\nname: SQL safety\nglobs: "**/*.sql"\n---\nParameterise every query.')
				.sections[0]!.title,
			'SQL safety',
		);
		assert.equal(parse('.continue/rules/01-sql.md', 'Parameterise every query.').sections[0]!.title, '01-sql');
	});
	it('a rule file with front matter only has no rule', () => {
		assert.deepEqual(parse('.cursor/rules/empty.mdc', '---\ndescription: nothing\n---\n\n').sections, []);
	});
	it('a rule file without front matter is one rule with no globs', () => {
		const r = parse('.cursor/rules/plain.mdc', '# Heading\nKeep it simple.').sections;
		assert.equal(r.length, 1);
		assert.deepEqual([r[0]!.globs, r[0]!.alwaysApply, r[0]!.text], [[], false, '# Heading\nKeep it simple.']);
	});
});

describe('instruction files: globs', () => {
	const cases: [string, string, boolean][] = [
		['src/**/*.ts', 'src/a.ts', true],
		['src/**/*.ts', 'src/x/y/a.ts', true],
		['src/**/*.ts', 'lib/a.ts', false],
		['*.ts', 'deep/down/a.ts', true],
		['*.ts', 'a.tsx', false],
		['**/*.{ts,tsx}', 'web/App.tsx', true],
		['test/*.test.ts', 'test/a.test.ts', true],
		['test/*.test.ts', 'test/unit/a.test.ts', false],
		['docs/?.md', 'docs/a.md', true],
		['./scripts/*.sh', 'scripts/run.sh', true],
		['a.b', 'aXb', false],
	];
	for (const [glob, path, want] of cases)
		it(`${glob} ${want ? 'matches' : 'does not match'} ${path}`, () => assert.equal(globRegExp(glob).test(path), want));
	it('matchingGlobs names the glob and the path that matched', () => {
		assert.deepEqual(matchingGlobs(['*.py', 'src/**/*.ts'], ['README.md', 'src/core/x.ts']), [
			{ glob: 'src/**/*.ts', path: 'src/core/x.ts' },
		]);
		assert.deepEqual(matchingGlobs(['*.py'], []), []);
	});
	it('finds the paths a message names', () => {
		assert.deepEqual(pathsInMessage('why does src/store/openStore.ts fail, and what about package.json? thanks.'), [
			'src/store/openStore.ts',
			'package.json',
		]);
		assert.deepEqual(pathsInMessage('hello there'), []);
	});
});

describe('instruction files: secrets and size caps', () => {
	it('redacts secrets before any section sees them, and says how many', () => {
		const key = 'ghp_' + 'a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8';
		const p = parse('AGENTS.md', `## Deploy\nUse the token ${key} for the registry.\npassword = "hunter22"\n`);
		const text = p.sections.map((s) => s.text).join('\n');
		assert.ok(!text.includes(key) && !text.includes('hunter22'), text);
		assert.ok(text.includes(REDACTED));
		assert.deepEqual(p.notes, ['AGENTS.md: 2 secrets redacted']);
	});
	it('reads a file only up to instruction_file_max_bytes, at a line end, with a note in its last section', () => {
		const body = Array.from({ length: 200 }, (_, i) => `## Rule ${i}\nline ${i} of the rules.`).join('\n');
		const p = parse('CLAUDE.md', body, { maxBytes: 1024, maxSectionChars: 2000 });
		const last = p.sections[p.sections.length - 1]!;
		assert.ok(p.sections.length < 200 && p.sections.length > 10, String(p.sections.length));
		assert.match(
			last.text,
			/\[… CLAUDE\.md is [\d.]+ KB; only its first 1\.0 KB are read \(instruction_file_max_bytes\)\]$/,
		);
		assert.ok(!p.sections.some((s) => s.title === 'Rule 199'));
		assert.equal(p.notes.length, 1);
	});
	it('cuts a long section at instruction_section_max_chars and says so', () => {
		const p = parse('AGENTS.md', `## Big\n${'x'.repeat(5000)}\n## Small\nok`, {
			maxBytes: 32768,
			maxSectionChars: 300,
		});
		assert.equal(p.sections[0]!.text.length < 400, true);
		assert.match(p.sections[0]!.text, /\[… section cut at 300 of 5000 characters \(instruction_section_max_chars\)\]$/);
		assert.equal(p.sections[1]!.text, 'ok');
		assert.deepEqual(p.notes, ['AGENTS.md § Big: cut at 300 of 5000 characters']);
	});
});
